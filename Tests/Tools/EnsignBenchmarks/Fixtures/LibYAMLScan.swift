#if YAML
    import CYAML
#endif

/// The floor any YAML loader built on libyaml stands on: parse every event of the stream and
/// delete it, building nothing. The load entries are compared with this.
enum LibYAMLScan {
    /// Scans `bytes`; returns the number of events, or `nil` when libyaml reports an error
    /// or this build has no libyaml (the `YAML` trait is off: the load entries need it).
    static func countEvents(in bytes: [UInt8]) -> Int? {
        #if !YAML
            return nil
        #else
            var parser = yaml_parser_t()
            guard yaml_parser_initialize(&parser) == 1 else { return nil }
            defer { yaml_parser_delete(&parser) }
            return bytes.withUnsafeBufferPointer { buffer -> Int? in
                yaml_parser_set_input_string(&parser, buffer.baseAddress, buffer.count)
                var event = yaml_event_t()
                var count = 0
                while true {
                    guard yaml_parser_parse(&parser, &event) == 1 else { return nil }
                    count += 1
                    let isEnd = event.type == YAML_STREAM_END_EVENT
                    yaml_event_delete(&event)
                    if isEnd { return count }
                }
            }
        #endif
    }
}

// libyaml's part: compiled with the YAML trait only (see Package.swift).
#if YAML
    import CYAML

    /// Writes ``YAMLNode`` trees as YAML text with libyaml's emitter.
    ///
    /// Used to write overlay files (preferences, persisted overrides). Block style, two-space
    /// indentation, UTF-8 output, Unicode kept as is. A plain scalar whose text would read back
    /// as something else (a string `"true"`, `"20"`, `"null"`, or a YAML 1.1 boolean like `"yes"`)
    /// is quoted, so what is written is what is read.
    ///
    /// ```swift
    /// let node = YAMLNode.mapping(["flags": .mapping(["beneficiaries.pageSize": .int(50)])])
    /// let text = try YAMLEmitter().text(for: node)
    /// // flags:
    /// //   beneficiaries.pageSize: 50
    /// ```
    package struct YAMLEmitter: Sendable {
        /// Creates an emitter.
        package init() {}

        /// The YAML text of a single document holding `node`.
        package func text(for node: YAMLNode) throws(YAMLError) -> String {
            try text(forDocuments: [node])
        }

        /// The YAML text of a stream of documents (separated by `---` when there are several).
        package func text(forDocuments nodes: [YAMLNode]) throws(YAMLError) -> String {
            let sink = OutputSink()
            var emitter = yaml_emitter_t()
            guard yaml_emitter_initialize(&emitter) == 1 else {
                throw YAMLError(.unreadable, at: .unknown("<emitter>"), "libyaml could not allocate an emitter")
            }
            defer { yaml_emitter_delete(&emitter) }
            yaml_emitter_set_unicode(&emitter, 1)
            yaml_emitter_set_indent(&emitter, 2)
            yaml_emitter_set_width(&emitter, -1)  // never fold long lines
            yaml_emitter_set_output(&emitter, writeToSink, Unmanaged.passUnretained(sink).toOpaque())
            try withExtendedLifetime(sink) { () throws(YAMLError) in
                var writer = EventWriter(emitter: emitter)
                try writer.stream(nodes)
                emitter = writer.emitter
            }
            return String(decoding: sink.bytes, as: UTF8.self)
        }
    }

    /// Collects the emitter's output; a class so libyaml's C callback can reach it.
    private final class OutputSink {
        var bytes: [UInt8] = []
    }

    private func writeToSink(_ context: UnsafeMutableRawPointer?, _ buffer: UnsafeMutablePointer<UInt8>?, _ size: Int)
        -> Int32
    {
        guard let context, let buffer else { return 0 }
        let sink = Unmanaged<OutputSink>.fromOpaque(context).takeUnretainedValue()
        sink.bytes.append(contentsOf: UnsafeBufferPointer(start: buffer, count: size))
        return 1
    }

    /// Feeds libyaml's emitter one event per node.
    private struct EventWriter {
        var emitter: yaml_emitter_t

        mutating func stream(_ nodes: [YAMLNode]) throws(YAMLError) {
            var event = yaml_event_t()
            yaml_stream_start_event_initialize(&event, YAML_UTF8_ENCODING)
            try emit(&event)
            for node in nodes {
                yaml_document_start_event_initialize(&event, nil, nil, nil, nodes.count == 1 ? 1 : 0)
                try emit(&event)
                try write(node)
                yaml_document_end_event_initialize(&event, 1)
                try emit(&event)
            }
            yaml_stream_end_event_initialize(&event)
            try emit(&event)
        }

        private mutating func emit(_ event: inout yaml_event_t) throws(YAMLError) {
            // yaml_emitter_emit takes ownership of the event, also when it fails.
            guard yaml_emitter_emit(&emitter, &event) == 1 else {
                let problem = emitter.problem.map { String(cString: $0) } ?? "unknown emitter error"
                throw YAMLError(.syntax, at: .unknown("<emitter>"), "cannot write YAML: \(problem)")
            }
        }

        private mutating func write(_ node: YAMLNode) throws(YAMLError) {
            var event = yaml_event_t()
            switch node.content {
            case .scalar(let text, let style):
                let emittedStyle = Self.libyamlStyle(style)
                var bytes = Array(text.utf8)
                let ok = bytes.withUnsafeMutableBufferPointer { buffer in
                    withOptionalCString(node.tag) { tag in
                        yaml_scalar_event_initialize(
                            &event, nil, tag, buffer.baseAddress, Int32(buffer.count),
                            node.tag == nil ? 1 : 0, node.tag == nil ? 1 : 0, emittedStyle)
                    }
                }
                guard ok == 1 else { throw YAMLError(.syntax, at: node.location, "cannot write scalar") }
                try emit(&event)
            case .sequence(let elements):
                _ = withOptionalCString(node.tag) { tag in
                    yaml_sequence_start_event_initialize(
                        &event, nil, tag, node.tag == nil ? 1 : 0,
                        elements.isEmpty ? YAML_FLOW_SEQUENCE_STYLE : YAML_BLOCK_SEQUENCE_STYLE)
                }
                try emit(&event)
                for element in elements { try write(element) }
                yaml_sequence_end_event_initialize(&event)
                try emit(&event)
            case .mapping(let entries):
                _ = withOptionalCString(node.tag) { tag in
                    yaml_mapping_start_event_initialize(
                        &event, nil, tag, node.tag == nil ? 1 : 0,
                        entries.isEmpty ? YAML_FLOW_MAPPING_STYLE : YAML_BLOCK_MAPPING_STYLE)
                }
                try emit(&event)
                for entry in entries {
                    try write(entry.key)
                    try write(entry.value)
                }
                yaml_mapping_end_event_initialize(&event)
                try emit(&event)
            }
        }

        /// libyaml's name for a style; libyaml itself falls back to quotes where plain text cannot
        /// carry the scalar (leading spaces, `: ` inside, …).
        static func libyamlStyle(_ style: ScalarStyle) -> yaml_scalar_style_t {
            switch style {
            case .singleQuoted: return YAML_SINGLE_QUOTED_SCALAR_STYLE
            case .doubleQuoted: return YAML_DOUBLE_QUOTED_SCALAR_STYLE
            case .literal: return YAML_LITERAL_SCALAR_STYLE
            case .folded: return YAML_FOLDED_SCALAR_STYLE
            case .plain: return YAML_PLAIN_SCALAR_STYLE
            }
        }
    }

    private func withOptionalCString<Result>(_ string: String?, _ body: (UnsafeMutablePointer<UInt8>?) -> Result)
        -> Result
    {
        guard let string else { return body(nil) }
        var bytes = Array(string.utf8CString).map { UInt8(bitPattern: $0) }
        return bytes.withUnsafeMutableBufferPointer { body($0.baseAddress) }
    }
#endif

// libyaml's part: compiled with the YAML trait only (see Package.swift).
#if YAML
    import CYAML

    /// Turns libyaml's event stream into ``YAMLNode`` trees: tracks open collections, anchors,
    /// merge keys, duplicate keys and the limits. All libyaml state stays inside this file.
    struct NodeComposer {
        let file: String
        /// The file's name once, shared by every node's position.
        private let fileBox: TextBox
        let limits: YAMLLimits
        private(set) var documents: [YAMLNode] = []
        private var stack: [OpenCollection] = []
        private var anchors: [String: AnchoredNode] = [:]
        private var aliasBudget: Int

        init(file: String, limits: YAMLLimits) {
            self.file = file
            self.fileBox = TextBox(file)
            self.limits = limits
            self.aliasBudget = limits.maximumAliasExpansion
        }

        private struct AnchoredNode {
            var node: YAMLNode
            var size: Int
        }

        /// A sequence or mapping whose end event has not arrived yet.
        private struct OpenCollection {
            var isMapping: Bool
            var tag: String?
            var anchor: String?
            var line: Int
            var column: Int
            var elements: [YAMLNode] = []
            var entries: [YAMLMappingEntry] = []
            var pendingKey: YAMLNode?
            var pendingKeyIsMerge = false
            /// Mappings to merge in, with the entry index where each `<<` stood.
            var merges: [(position: Int, sources: [YAMLNode])] = []
            /// Built once a mapping grows past a few keys, so duplicate checks stay O(1).
            var keyIndex: [ExactText: SourcePosition]?
            /// Nodes in this subtree so far, counting this one.
            var size = 1
        }

        mutating func compose(_ bytes: [UInt8]) throws(YAMLError) {
            var parser = yaml_parser_t()
            guard yaml_parser_initialize(&parser) == 1 else {
                throw YAMLError(.unreadable, at: location(line: 1, column: 1), "libyaml could not allocate a parser")
            }
            defer { yaml_parser_delete(&parser) }
            // libyaml needs a valid pointer even for empty input.
            let input = bytes.isEmpty ? [0] : bytes
            let count = bytes.count
            var failure: YAMLError?
            input.withUnsafeBufferPointer { buffer in
                yaml_parser_set_input_string(&parser, buffer.baseAddress, count)
                var event = yaml_event_t()
                while failure == nil {
                    guard yaml_parser_parse(&parser, &event) == 1 else {
                        failure = LibYAMLDiagnostics.error(from: parser, bytes: buffer, count: count, file: file)
                        return
                    }
                    defer { yaml_event_delete(&event) }
                    if event.type == YAML_STREAM_END_EVENT { return }
                    do throws(YAMLError) {
                        try handle(event)
                    } catch {
                        failure = error
                    }
                }
            }
            if let failure { throw failure }
        }

        private func location(line: Int, column: Int) -> SourcePosition {
            SourcePosition(file: file, line: line, column: column)
        }

        private func location(of mark: yaml_mark_t) -> SourcePosition {
            SourcePosition(file: file, line: Int(mark.line) + 1, column: Int(mark.column) + 1)
        }

        private mutating func handle(_ event: yaml_event_t) throws(YAMLError) {
            switch event.type {
            case YAML_SCALAR_EVENT:
                let scalar = event.data.scalar
                let text = String(
                    decoding: UnsafeBufferPointer(start: scalar.value, count: Int(scalar.length)), as: UTF8.self)
                let node = YAMLNode(
                    .scalar(text, Self.style(scalar.style)), tag: Self.string(scalar.tag), file: fileBox,
                    line: Int(event.start_mark.line) + 1, column: Int(event.start_mark.column) + 1)
                try complete(node, size: 1, anchor: Self.string(scalar.anchor))
            case YAML_SEQUENCE_START_EVENT, YAML_MAPPING_START_EVENT:
                let isMapping = event.type == YAML_MAPPING_START_EVENT
                let start = location(of: event.start_mark)
                guard stack.count < limits.maximumDepth else {
                    throw YAMLError(
                        .limitExceeded, at: start,
                        "nesting is deeper than \(limits.maximumDepth) levels (YAMLLimits.maximumDepth)")
                }
                let tag = isMapping ? event.data.mapping_start.tag : event.data.sequence_start.tag
                let anchor = isMapping ? event.data.mapping_start.anchor : event.data.sequence_start.anchor
                stack.append(
                    OpenCollection(
                        isMapping: isMapping, tag: Self.string(tag), anchor: Self.string(anchor), line: start.line,
                        column: start.column))
            case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
                let collection = stack.removeLast()
                let node: YAMLNode
                if collection.isMapping {
                    node = YAMLNode(
                        .mapping(try Self.applyingMerges(collection)), tag: collection.tag, file: fileBox,
                        line: collection.line, column: collection.column)
                } else {
                    node = YAMLNode(
                        .sequence(collection.elements), tag: collection.tag, file: fileBox, line: collection.line,
                        column: collection.column)
                }
                try complete(node, size: collection.size, anchor: collection.anchor)
            case YAML_ALIAS_EVENT:
                let name = Self.string(event.data.alias.anchor) ?? ""
                let at = location(of: event.start_mark)
                guard let anchored = anchors[name] else {
                    throw YAMLError(.unknownAnchor, at: at, "alias '*\(name)' refers to an anchor that is not defined")
                }
                aliasBudget -= anchored.size
                guard aliasBudget >= 0 else {
                    throw YAMLError(
                        .limitExceeded, at: at,
                        "aliases expand to more than \(limits.maximumAliasExpansion) nodes"
                            + " (YAMLLimits.maximumAliasExpansion); is this an alias bomb?")
                }
                try complete(anchored.node, size: anchored.size, anchor: nil)
            default:
                break  // stream/document start and end carry nothing we keep
            }
        }

        /// Adds a finished node to its parent (or makes it a document root).
        private mutating func complete(_ node: YAMLNode, size: Int, anchor: String?) throws(YAMLError) {
            if let anchor { anchors[anchor] = AnchoredNode(node: node, size: size) }
            guard !stack.isEmpty else {
                documents.append(node)
                anchors.removeAll(keepingCapacity: true)  // anchors are local to a document
                return
            }
            let top = stack.count - 1
            stack[top].size += size
            guard stack[top].isMapping else {
                stack[top].elements.append(node)
                return
            }
            guard let key = stack[top].pendingKey else {
                try Self.acceptKey(node, in: &stack[top])
                return
            }
            stack[top].pendingKey = nil
            if stack[top].pendingKeyIsMerge {
                stack[top].pendingKeyIsMerge = false
                try Self.acceptMerge(node, in: &stack[top])
            } else {
                stack[top].entries.append(YAMLMappingEntry(key: key, value: node))
            }
        }

        // Static, so that passing `&stack[top]` does not copy `self` (and with it every open collection).
        private static func acceptKey(_ key: YAMLNode, in collection: inout OpenCollection) throws(YAMLError) {
            collection.pendingKey = key
            guard case .scalar(let text, let style) = key.content else { return }
            if text == "<<", style == .plain, key.tag == nil || key.tag == "tag:yaml.org,2002:merge" {
                guard collection.merges.isEmpty else {
                    throw YAMLError(.duplicateKey, at: key.location, "duplicate merge key '<<' in this mapping")
                }
                collection.pendingKeyIsMerge = true
                return
            }
            if let first = firstLocation(ofKey: text, in: &collection) {
                throw YAMLError(
                    .duplicateKey, at: key.location,
                    "duplicate key '\(text)' (first defined at line \(first.line), column \(first.column))")
            }
        }

        /// Where `key` already stands in the mapping, recording it if not.
        private static func firstLocation(ofKey key: String, in collection: inout OpenCollection) -> SourcePosition? {
            if collection.keyIndex == nil {
                if let existing = collection.entries.first(where: {
                    $0.key.scalarText?.utf8.elementsEqual(key.utf8) == true
                }) {
                    return existing.key.location
                }
                if collection.entries.count >= 8 {
                    var index: [ExactText: SourcePosition] = [:]
                    for entry in collection.entries {
                        if let text = entry.key.scalarText { index[ExactText(text)] = entry.key.location }
                    }
                    collection.keyIndex = index
                } else {
                    return nil
                }
            }
            if let existing = collection.keyIndex?[ExactText(key)] { return existing }
            collection.keyIndex?[ExactText(key)] = collection.pendingKey?.location
            return nil
        }

        private static func acceptMerge(_ value: YAMLNode, in collection: inout OpenCollection) throws(YAMLError) {
            let sources: [YAMLNode]
            switch value.content {
            case .mapping: sources = [value]
            case .sequence(let elements) where elements.allSatisfy(\.isMapping): sources = elements
            default:
                throw YAMLError(
                    .syntax, at: value.location, "merge key '<<' needs a mapping or a sequence of mappings")
            }
            collection.merges.append((collection.entries.count, sources))
        }

        /// The mapping's entries with merged entries placed where `<<` stood; explicit keys win,
        /// and earlier merge sources win over later ones.
        private static func applyingMerges(_ collection: OpenCollection) throws(YAMLError) -> [YAMLMappingEntry] {
            guard !collection.merges.isEmpty else { return collection.entries }
            var taken = Set(collection.entries.compactMap { $0.key.scalarText })
            var merged: [YAMLMappingEntry] = []
            var position = 0
            for (insertAt, sources) in collection.merges {
                merged.append(contentsOf: collection.entries[position..<insertAt])
                position = insertAt
                for source in sources {
                    for entry in source.mappingEntries ?? [] {
                        guard let text = entry.key.scalarText else { continue }
                        if taken.insert(text).inserted { merged.append(entry) }
                    }
                }
            }
            merged.append(contentsOf: collection.entries[position...])
            return merged
        }

        private static func style(_ style: yaml_scalar_style_t) -> ScalarStyle {
            switch style {
            case YAML_SINGLE_QUOTED_SCALAR_STYLE: return .singleQuoted
            case YAML_DOUBLE_QUOTED_SCALAR_STYLE: return .doubleQuoted
            case YAML_LITERAL_SCALAR_STYLE: return .literal
            case YAML_FOLDED_SCALAR_STYLE: return .folded
            default: return .plain
            }
        }

        private static func string(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String? {
            guard let pointer else { return nil }
            return String(cString: pointer)
        }
    }
#endif

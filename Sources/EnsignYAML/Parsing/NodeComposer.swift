// libyaml's part: compiled with the YAML trait only (see Package.swift).
#if YAML
    import CYAML

    /// Composes one node (a scalar, an alias or a whole collection) from a ``YAMLEventReader``'s
    /// libyaml events: tracks open collections, merge keys, duplicate keys and the limits,
    /// with the reader's anchors and alias budget. libyaml's events stay inside these files.
    struct NodeComposer {
        /// Collections open around the node being composed, for the depth limit.
        private var depth = 0
        private var stack: [OpenCollection] = []

        /// Readies the composer for a node inside `depth` open collections, keeping the
        /// stack's storage: a reader composes thousands of small subtrees with one composer.
        mutating func reset(depth: Int) {
            self.depth = depth
            stack.removeAll(keepingCapacity: true)
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
            /// The keys a walked mapping read before its rest was composed here.
            var earlierKeys: MappingKeyIndex?
            /// Nodes in this subtree so far, counting this one.
            var size = 1
        }

        /// Composes the node under the reader's cursor and moves past it.
        mutating func compose(from reader: inout YAMLEventReader) throws(YAMLError) -> YAMLNode {
            while true {
                let finished = try handle(reader.event, reader: &reader)
                try reader.advance()
                if let finished { return finished }
            }
        }

        /// Composes the rest of `mapping`, walked so far from the reader's events, from the key
        /// under the cursor to the mapping's end (which it moves past): the remaining entries
        /// with merges applied, checked against the keys read before.
        mutating func composeRest(
            of mapping: YAMLMappingCursor, from reader: inout YAMLEventReader
        ) throws(YAMLError) -> [YAMLMappingEntry] {
            stack.append(
                OpenCollection(
                    isMapping: true, line: mapping.location.line, column: mapping.location.column,
                    earlierKeys: mapping.keys))
            return try compose(from: &reader).mappingEntries ?? []
        }

        /// Takes one event in; returns the node being composed once it is complete.
        private mutating func handle(
            _ event: yaml_event_t, reader: inout YAMLEventReader
        ) throws(YAMLError) -> YAMLNode? {
            switch event.type {
            case YAML_SCALAR_EVENT:
                return try complete(
                    reader.scalarNode(event), size: 1, anchor: YAMLEventReader.string(event.data.scalar.anchor),
                    reader: &reader)
            case YAML_SEQUENCE_START_EVENT, YAML_MAPPING_START_EVENT:
                let isMapping = event.type == YAML_MAPPING_START_EVENT
                guard depth + stack.count < reader.limits.maximumDepth else {
                    throw YAMLError(
                        .limitExceeded, at: reader.location(of: event.start_mark),
                        "nesting is deeper than \(reader.limits.maximumDepth) levels (YAMLLimits.maximumDepth)")
                }
                let tag = isMapping ? event.data.mapping_start.tag : event.data.sequence_start.tag
                let anchor = isMapping ? event.data.mapping_start.anchor : event.data.sequence_start.anchor
                stack.append(
                    OpenCollection(
                        isMapping: isMapping, tag: YAMLEventReader.string(tag),
                        anchor: YAMLEventReader.string(anchor), line: Int(event.start_mark.line) + 1,
                        column: Int(event.start_mark.column) + 1))
                return nil
            case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
                let collection = stack.removeLast()
                let node: YAMLNode
                if collection.isMapping {
                    node = YAMLNode(
                        .mapping(try Self.applyingMerges(collection)), tag: collection.tag, file: reader.fileNumber,
                        line: collection.line, column: collection.column)
                } else {
                    node = YAMLNode(
                        .sequence(collection.elements), tag: collection.tag, file: reader.fileNumber,
                        line: collection.line, column: collection.column)
                }
                return try complete(node, size: collection.size, anchor: collection.anchor, reader: &reader)
            case YAML_ALIAS_EVENT:
                let name = YAMLEventReader.string(event.data.alias.anchor) ?? ""
                let at = reader.location(of: event.start_mark)
                guard let anchored = reader.anchors[name] else {
                    throw YAMLError(.unknownAnchor, at: at, "alias '*\(name)' refers to an anchor that is not defined")
                }
                reader.aliasBudget -= anchored.size
                guard reader.aliasBudget >= 0 else {
                    throw YAMLError(
                        .limitExceeded, at: at,
                        "aliases expand to more than \(reader.limits.maximumAliasExpansion) nodes"
                            + " (YAMLLimits.maximumAliasExpansion); is this an alias bomb?")
                }
                return try complete(anchored.node, size: anchored.size, anchor: nil, reader: &reader)
            default:
                throw YAMLError(.syntax, at: reader.location(of: event.start_mark), "expected a node")
            }
        }

        /// Adds a finished node to its parent; returns it when it has none (it is the node
        /// being composed).
        private mutating func complete(
            _ node: YAMLNode, size: Int, anchor: String?, reader: inout YAMLEventReader
        ) throws(YAMLError) -> YAMLNode? {
            if let anchor { reader.anchors[anchor] = YAMLEventReader.AnchoredNode(node: node, size: size) }
            guard !stack.isEmpty else { return node }
            let top = stack.count - 1
            stack[top].size += size
            guard stack[top].isMapping else {
                // Room for a few at once: most collections are short, and growing one element
                // at a time reallocated each of them two or three times.
                if stack[top].elements.isEmpty { stack[top].elements.reserveCapacity(4) }
                stack[top].elements.append(node)
                return nil
            }
            // Taken, not copied: the key moves into its entry without a retain and a release.
            guard let key = stack[top].pendingKey.take() else {
                try Self.acceptKey(node, in: &stack[top])
                return nil
            }
            if stack[top].pendingKeyIsMerge {
                stack[top].pendingKeyIsMerge = false
                try Self.acceptMerge(node, in: &stack[top])
            } else {
                if stack[top].entries.isEmpty { stack[top].entries.reserveCapacity(4) }
                stack[top].entries.append(YAMLMappingEntry(key: key, value: node))
            }
            return nil
        }

        /// Whether `key` is the merge key `<<`.
        static func isMergeKey(_ key: YAMLNode) -> Bool {
            guard case .scalar(let text, let style) = key.content else { return false }
            return text == "<<" && style == .plain && (key.tag == nil || key.tag == "tag:yaml.org,2002:merge")
        }

        /// The error for `key` at `location`, already in its mapping at `first`.
        static func duplicateKeyError(_ key: String, at location: SourcePosition, first: SourcePosition) -> YAMLError {
            YAMLError(
                .duplicateKey, at: location,
                "duplicate key '\(key)' (first defined at line \(first.line), column \(first.column))")
        }

        // Static, so that passing `&stack[top]` does not copy `self` (and with it every open collection).
        private static func acceptKey(_ key: YAMLNode, in collection: inout OpenCollection) throws(YAMLError) {
            collection.pendingKey = key
            guard case .scalar(let text, _) = key.content else { return }
            if isMergeKey(key) {
                guard collection.merges.isEmpty else {
                    throw YAMLError(.duplicateKey, at: key.location, "duplicate merge key '<<' in this mapping")
                }
                collection.pendingKeyIsMerge = true
                return
            }
            if let first = collection.earlierKeys?.location(of: text)
                ?? firstLocation(ofKey: text, in: &collection)
            {
                throw duplicateKeyError(text, at: key.location, first: first)
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
            var taken = Set(collection.entries.compactMap { $0.key.scalarText } + (collection.earlierKeys?.texts ?? []))
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
    }
#endif

#if YAML
    import CYAML
#endif

/// What stands under a ``YAMLEventReader``'s cursor.
package enum YAMLEventKind: Sendable, Hashable {
    /// A scalar node.
    case scalar
    /// An alias (`*name`) to an anchored node.
    case alias
    /// The start of a sequence node.
    case sequenceStart
    /// The end of the sequence being read.
    case sequenceEnd
    /// The start of a mapping node.
    case mappingStart
    /// The end of the mapping being read.
    case mappingEnd
    /// No node: the end of a document or of the stream.
    case documentEnd
}

/// A cursor over a YAML stream's events, with their source marks, that can compose the
/// subtree under it into a ``YAMLNode`` whenever a reader needs one.
///
/// A reader that knows a file's structure walks it event by event (see ``enterMapping()``
/// and ``nextKey(in:)``) and builds nodes only for the parts it wants whole, so a large file
/// never exists as one tree. Anchors, aliases, merge keys, duplicate keys and the
/// ``YAMLLimits`` are handled the same way whether a part is walked or composed: a walked
/// mapping falls back to composing the rest of itself at the first key it cannot walk (an
/// alias, an anchored or non-scalar key, `<<`).
///
/// Nodes already built (a JSON file, a definitions bundle's members) are replayed as events,
/// so one reader serves every source. Get a reader from ``YAMLParser/readEvents(from:file:_:)``.
///
/// ```swift
/// let names = try YAMLParser().readEvents(from: Array("a: 1\nb: 2\n".utf8), file: "f.yaml") { reader in
///     var names: [String] = []
///     while try reader.nextDocument() {
///         var mapping = try reader.enterMapping()
///         while let key = try reader.nextKey(in: &mapping) {
///             names.append(key.scalarText ?? "?")
///             _ = try reader.composeNode()
///         }
///     }
///     return names
/// }
/// ```
package struct YAMLEventReader: ~Copyable {
    /// The file named in every location.
    package let file: String
    /// The file's number in ``SourceFileNames``, for every node's position.
    let fileNumber: UInt32
    /// The limits enforced.
    let limits: YAMLLimits
    /// The current document's anchored nodes, with their sizes for the alias budget.
    var anchors: [String: AnchoredNode] = [:]
    /// How many more nodes aliases may copy in this stream.
    var aliasBudget: Int
    /// Mappings entered with ``enterMapping()`` from libyaml's events and not yet left, for
    /// the depth limit.
    var openDepth = 0
    /// Nodes whose events come before the current libyaml event, innermost last.
    private var replay: [ReplayFrame] = []
    #if YAML
        /// libyaml's parser, on the heap (it points at itself once given its input), when this
        /// reader parses on its own thread; `nil` when a ``LibYAMLPrefetcher`` owns it.
        private let parser: UnsafeMutablePointer<yaml_parser_t>?
        /// The event parsed on this thread, when there is no prefetcher.
        private let ownEvent: UnsafeMutablePointer<yaml_event_t>?
        /// The current libyaml event: `ownEvent`, or one in the prefetcher's batches.
        private var eventStorage: UnsafeMutablePointer<yaml_event_t>?
        private var hasEvent = false
        /// Parses ahead on a second thread, for large inputs.
        private let prefetcher: LibYAMLPrefetcher?
        /// `prefetcher`, for ``advance()`` to call without a retain.
        private let unownedPrefetcher: Unmanaged<LibYAMLPrefetcher>?
        /// The composer between two subtrees, kept for its stack's storage.
        private var spareComposer = NodeComposer()
        /// The input, for the positions of encoding errors.
        private let input: UnsafeBufferPointer<UInt8>
        private let inputCount: Int
    #endif

    /// A node anchored in the current document.
    struct AnchoredNode {
        var node: YAMLNode
        var size: Int
    }

    /// Already-built nodes being replayed as events.
    private struct ReplayFrame {
        enum Items {
            case nodes([YAMLNode])
            case entries([YAMLMappingEntry])
        }
        var items: Items
        /// The next item: for entries, twice the entry's index, plus one for its value.
        var position = 0
        let count: Int
        /// The event after the items (the end of their collection); `nil` for a single node,
        /// whose frame goes once the node is read.
        let end: YAMLEventKind?

        init(_ items: Items, end: YAMLEventKind?) {
            self.items = items
            switch items {
            case .nodes(let nodes): count = nodes.count
            case .entries(let entries): count = entries.count * 2
            }
            self.end = end
        }

        var current: YAMLNode? {
            guard position < count else { return nil }
            switch items {
            case .nodes(let nodes): return nodes[position]
            case .entries(let entries):
                return position % 2 == 0 ? entries[position / 2].key : entries[position / 2].value
            }
        }
    }

    /// A reader that replays `documents` (parsed already, say from JSON) as a stream.
    init(replaying documents: [YAMLNode], file: String, limits: YAMLLimits) {
        self.file = file
        self.fileNumber = SourceFileNames.number(for: file)
        self.limits = limits
        self.aliasBudget = limits.maximumAliasExpansion
        self.replay = [ReplayFrame(.nodes(documents), end: .documentEnd)]
        #if YAML
            parser = nil
            ownEvent = nil
            eventStorage = nil
            prefetcher = nil
            unownedPrefetcher = nil
            input = UnsafeBufferPointer(start: nil, count: 0)
            inputCount = 0
        #endif
    }

    deinit {
        #if YAML
            prefetcher?.finish()
            if let ownEvent {
                if hasEvent { yaml_event_delete(ownEvent) }
                ownEvent.deallocate()
            }
            if let parser {
                yaml_parser_delete(parser)
                parser.deallocate()
            }
        #endif
    }

    // MARK: The cursor

    /// What is under the cursor.
    package var kind: YAMLEventKind {
        if let frame = replay.last {
            guard let node = frame.current else { return frame.end ?? .documentEnd }
            switch node.content {
            case .scalar: return .scalar
            case .sequence: return .sequenceStart
            case .mapping: return .mappingStart
            }
        }
        #if YAML
            switch eventStorage?.pointee.type {
            case YAML_SCALAR_EVENT: return .scalar
            case YAML_ALIAS_EVENT: return .alias
            case YAML_SEQUENCE_START_EVENT: return .sequenceStart
            case YAML_SEQUENCE_END_EVENT: return .sequenceEnd
            case YAML_MAPPING_START_EVENT: return .mappingStart
            case YAML_MAPPING_END_EVENT: return .mappingEnd
            default: return .documentEnd
            }
        #else
            return .documentEnd
        #endif
    }

    /// Where the event under the cursor starts.
    package var location: SourcePosition {
        if let frame = replay.last {
            return frame.current?.location ?? SourcePosition(file: file, line: 0, column: 0)
        }
        #if YAML
            if let mark = eventStorage?.pointee.start_mark { return location(of: mark) }
        #endif
        return SourcePosition(file: file, line: 0, column: 0)
    }

    /// Moves to the next document's root node; `false` at the end of the stream. Call it
    /// before each document, once the previous one's root has been read.
    package mutating func nextDocument() throws(YAMLError) -> Bool {
        if let frame = replay.last, frame.end == .documentEnd { return frame.current != nil }
        #if YAML
            while let event = eventStorage?.pointee {
                switch event.type {
                case YAML_DOCUMENT_START_EVENT:
                    try advance()
                    anchors.removeAll(keepingCapacity: true)  // anchors are local to a document
                    return true
                case YAML_STREAM_END_EVENT:
                    return false
                default:
                    try advance()
                }
            }
        #endif
        return false
    }

    /// Reads the node under the cursor (a scalar, an alias or a whole collection) as a tree,
    /// and moves past it.
    package mutating func composeNode() throws(YAMLError) -> YAMLNode {
        if !replay.isEmpty {
            guard let node = replay[replay.count - 1].current else {
                throw YAMLError(.syntax, at: location, "expected a node, found the end of a collection")
            }
            consumeReplayedNode()
            return node
        }
        #if YAML
            let event = self.event
            if event.type == YAML_SCALAR_EVENT, event.data.scalar.anchor == nil {
                // Most nodes: no collection to track, so no composer.
                let node = scalarNode(event)
                try advance()
                return node
            }
            var composer = takeComposer(depth: openDepth)
            defer { spareComposer = composer }
            return try composer.compose(from: &self)
        #else
            throw YAMLError(.syntax, at: location, "expected a node, found the end of the document")
        #endif
    }

    /// Composes the node under the cursor unless it is a mapping, which stays under the cursor
    /// to be entered with ``enterMapping()`` (an alias of one is replayed): for a reader that
    /// walks mappings and reports anything else.
    package mutating func composeNodeUnlessMapping() throws(YAMLError) -> YAMLNode? {
        if kind == .mappingStart { return nil }
        let node = try composeNode()
        guard node.isMapping else { return node }
        replay(node)
        return nil
    }

    /// Replays `node`'s events before the current ones.
    mutating func replay(_ node: YAMLNode) {
        replay.append(ReplayFrame(.nodes([node]), end: nil))
    }

    /// Replays `entries` as the rest of the mapping being read, closed by its end.
    mutating func replay(restOfMapping entries: [YAMLMappingEntry]) {
        replay.append(ReplayFrame(.entries(entries), end: .mappingEnd))
    }

    /// Whether the events under the cursor come from nodes already built (checked and with
    /// their aliases and merges applied).
    var isReplaying: Bool { !replay.isEmpty }

    /// Moves past the replayed node under the cursor.
    private mutating func consumeReplayedNode() {
        let top = replay.count - 1
        replay[top].position += 1
        if replay[top].end == nil, replay[top].position >= replay[top].count { replay.removeLast() }
    }

    /// Enters the replayed mapping under the cursor: its entries come next, then its end.
    mutating func enterReplayedMapping() {
        let node = replay[replay.count - 1].current
        consumeReplayedNode()
        replay.append(ReplayFrame(.entries(node?.mappingEntries ?? []), end: .mappingEnd))
    }

    /// Moves past the end of a replayed collection.
    mutating func leaveReplayedCollection() {
        replay.removeLast()
    }

    /// The replayed node under the cursor, moving past it; `nil` at the end of a collection.
    mutating func nextReplayedNode() -> YAMLNode? {
        guard let node = replay[replay.count - 1].current else { return nil }
        consumeReplayedNode()
        return node
    }

    func location(line: Int, column: Int) -> SourcePosition {
        SourcePosition(file: file, line: line, column: column)
    }
}

#if YAML
    extension YAMLEventReader {
        /// A reader over libyaml's events for `input`, which must outlive it; an input of
        /// `prefetchThreshold` bytes or more is parsed ahead on a second thread (see
        /// ``LibYAMLPrefetcher``).
        init(
            parsing input: UnsafeBufferPointer<UInt8>, count: Int, file: String, limits: YAMLLimits,
            prefetchThreshold: Int, idleWork: IdleWork? = nil
        ) throws(YAMLError) {
            self.file = file
            self.fileNumber = SourceFileNames.number(for: file)
            self.limits = limits
            self.aliasBudget = limits.maximumAliasExpansion
            self.input = input
            self.inputCount = count
            let parser = UnsafeMutablePointer<yaml_parser_t>.allocate(capacity: 1)
            parser.initialize(to: yaml_parser_t())
            let eventStorage = UnsafeMutablePointer<yaml_event_t>.allocate(capacity: 1)
            eventStorage.initialize(to: yaml_event_t())
            guard yaml_parser_initialize(parser) == 1 else {
                parser.deallocate()
                eventStorage.deallocate()
                self.parser = nil
                self.ownEvent = nil
                self.eventStorage = nil
                self.prefetcher = nil
                self.unownedPrefetcher = nil
                throw YAMLError(.unreadable, at: location(line: 1, column: 1), "libyaml could not allocate a parser")
            }
            yaml_parser_set_input_string(parser, input.baseAddress, count)
            if count >= prefetchThreshold {
                eventStorage.deallocate()
                self.parser = nil
                self.ownEvent = nil
                self.eventStorage = nil
                let prefetcher = LibYAMLPrefetcher(
                    parser: parser, input: input, count: count, file: file, idleWork: idleWork)
                self.prefetcher = prefetcher
                self.unownedPrefetcher = Unmanaged.passUnretained(prefetcher)
            } else {
                self.parser = parser
                self.ownEvent = eventStorage
                self.eventStorage = eventStorage
                self.prefetcher = nil
                self.unownedPrefetcher = nil
            }
            try advance()
        }

        /// The reader's composer, ready for a node inside `depth` open collections; put it
        /// back in `spareComposer` once done.
        mutating func takeComposer(depth: Int) -> NodeComposer {
            var composer = spareComposer
            spareComposer = NodeComposer()
            composer.reset(depth: depth)
            return composer
        }

        /// The current libyaml event; valid until the next ``advance()``.
        var event: yaml_event_t { eventStorage!.pointee }

        /// Moves to libyaml's next event.
        mutating func advance() throws(YAMLError) {
            if let prefetcher = unownedPrefetcher {
                // Borrowed: `prefetcher` holds it for the reader's life (a retain and a release
                // for each of a large file's million events was a fiftieth of its load).
                let next = prefetcher._withUnsafeGuaranteedRef { prefetcher in
                    Result { () throws(YAMLError) in try prefetcher.next() }
                }
                eventStorage = try next.get()
                return
            }
            guard let parser, let eventStorage else { return }
            if hasEvent {
                yaml_event_delete(eventStorage)
                hasEvent = false
            }
            guard yaml_parser_parse(parser, eventStorage) == 1 else {
                throw LibYAMLDiagnostics.error(from: parser.pointee, bytes: input, count: inputCount, file: file)
            }
            hasEvent = true
        }

        func location(of mark: yaml_mark_t) -> SourcePosition {
            SourcePosition(file: file, line: Int(mark.line) + 1, column: Int(mark.column) + 1)
        }

        /// The scalar event `event` as a node.
        func scalarNode(_ event: yaml_event_t) -> YAMLNode {
            let scalar = event.data.scalar
            let text = String(
                decoding: UnsafeBufferPointer(start: scalar.value, count: Int(scalar.length)), as: UTF8.self)
            return YAMLNode(
                .scalar(text, Self.style(scalar.style)), tag: Self.string(scalar.tag), file: fileNumber,
                line: Int(event.start_mark.line) + 1, column: Int(event.start_mark.column) + 1)
        }

        static func style(_ style: yaml_scalar_style_t) -> ScalarStyle {
            switch style {
            case YAML_SINGLE_QUOTED_SCALAR_STYLE: return .singleQuoted
            case YAML_DOUBLE_QUOTED_SCALAR_STYLE: return .doubleQuoted
            case YAML_LITERAL_SCALAR_STYLE: return .literal
            case YAML_FOLDED_SCALAR_STYLE: return .folded
            default: return .plain
            }
        }

        static func string(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String? {
            guard let pointer else { return nil }
            return String(cString: pointer)
        }
    }
#endif

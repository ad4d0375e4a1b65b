#if YAML
    import CYAML
#endif

/// A mapping being read key by key with ``YAMLEventReader/nextKey(in:)``.
package struct YAMLMappingCursor {
    /// Where the mapping starts.
    package let location: SourcePosition
    /// The keys read from libyaml's events so far, for the duplicate check.
    var keys = MappingKeyIndex()
    /// Whether entering the mapping counted towards the depth limit (it came from libyaml).
    let countsDepth: Bool
    /// The known keys ``YAMLEventReader/nextKey(in:known:)`` has read, one bit each, and
    /// where (the line and column, by name index, up to ``YAMLKnownKeys/capacity``; the file
    /// is the mapping's): they are not in `keys` until another kind of key comes (see
    /// `includeKnownKeys`). Vectors rather than arrays, so the cursor allocates nothing.
    var knownSeen: UInt32 = 0
    var knownLines = SIMD16<UInt32>()
    var knownColumns = SIMD16<UInt32>()
    /// Whether the known keys are in `keys`: from then on every key goes through it.
    var knownKeysIncluded = false
}

extension YAMLEventReader {
    /// Enters the mapping under the cursor, to read it with ``nextKey(in:)``.
    ///
    /// An anchored mapping is composed first (its anchor must hold the whole node) and then
    /// replayed; the depth limit counts it as a composed one would.
    package mutating func enterMapping() throws(YAMLError) -> YAMLMappingCursor {
        let start = location
        guard kind == .mappingStart else {
            throw YAMLError(.syntax, at: start, "expected a mapping")
        }
        if isReplaying {
            enterReplayedMapping()
            return YAMLMappingCursor(location: start, countsDepth: false)
        }
        #if YAML
            if event.data.mapping_start.anchor != nil {
                replay(try composeNode())
                enterReplayedMapping()
                return YAMLMappingCursor(location: start, countsDepth: false)
            }
            guard openDepth < limits.maximumDepth else {
                throw YAMLError(
                    .limitExceeded, at: start,
                    "nesting is deeper than \(limits.maximumDepth) levels (YAMLLimits.maximumDepth)")
            }
            openDepth += 1
            try advance()
        #endif
        return YAMLMappingCursor(location: start, countsDepth: true)
    }

    /// The next key of `mapping` (then the cursor is on its value, which the caller must
    /// read), or `nil` once the mapping ends (the cursor moves past it).
    ///
    /// Keys are checked for duplicates. At a key that cannot be read as a plain scalar (an
    /// alias, an anchored or non-scalar key, a merge key `<<`), the rest of the mapping is
    /// composed with the keys read so far taken into account, and replayed.
    package mutating func nextKey(in mapping: inout YAMLMappingCursor) throws(YAMLError) -> YAMLNode? {
        if isReplaying {
            if let key = nextReplayedNode() { return key }
            leaveReplayedCollection()
            if mapping.countsDepth { openDepth -= 1 }
            return nil
        }
        #if YAML
            let event = self.event
            switch event.type {
            case YAML_MAPPING_END_EVENT:
                try advance()
                openDepth -= 1
                return nil
            case YAML_SCALAR_EVENT where event.data.scalar.anchor == nil:
                let key = scalarNode(event)
                guard let text = key.scalarText, !NodeComposer.isMergeKey(key) else { break }
                let bytes = UnsafeRawBufferPointer(start: event.data.scalar.value, count: Int(event.data.scalar.length))
                if let first = mapping.keys.insert(text, bytes: bytes, at: key.compactPosition) {
                    throw NodeComposer.duplicateKeyError(text, at: key.location, first: first.sourcePosition)
                }
                try advance()
                return key
            default:
                break
            }
            var composer = NodeComposer()
            composer.reset(depth: openDepth - 1)
            replay(restOfMapping: try composer.composeRest(of: mapping, from: &self))
            return try nextKey(in: &mapping)
        #else
            return nil
        #endif
    }

    /// The next key of `mapping`, matched against `known` from its bytes when it is a plain
    /// scalar without anchor or tag (then nothing is made for it), else as ``nextKey(in:)``
    /// reads it; `nil` once the mapping ends.
    ///
    /// A known key written twice is refused as any duplicate is, with the first one's
    /// position. The first key of another kind (an unknown name, a tag, an anchor, a merge)
    /// puts the known keys read so far into the cursor's index, so that from there on the
    /// mapping is read exactly as ``nextKey(in:)`` reads it: duplicates across kinds, merges
    /// that an earlier key overrides.
    package mutating func nextKey(
        in mapping: inout YAMLMappingCursor, known: YAMLKnownKeys
    ) throws(YAMLError) -> YAMLKey? {
        #if YAML
            if !isReplaying, !mapping.knownKeysIncluded {
                let event = self.event
                switch event.type {
                case YAML_MAPPING_END_EVENT:
                    return try nextKey(in: &mapping).map(YAMLKey.other)
                case YAML_SCALAR_EVENT where event.data.scalar.anchor == nil && event.data.scalar.tag == nil:
                    let bytes = UnsafeRawBufferPointer(
                        start: event.data.scalar.value, count: Int(event.data.scalar.length))
                    guard let index = known.index(of: bytes) else { break }
                    let position = CompactSourcePosition(
                        file: fileNumber, line: Int(event.start_mark.line) + 1,
                        column: Int(event.start_mark.column) + 1)
                    if mapping.knownSeen & (1 << index) != 0 {
                        throw NodeComposer.duplicateKeyError(
                            known.names[index], at: position.sourcePosition,
                            first: knownPosition(index, in: mapping).sourcePosition)
                    }
                    mapping.knownSeen |= 1 << index
                    mapping.knownLines[index] = position.line
                    mapping.knownColumns[index] = position.column
                    try advance()
                    return .known(index, position)
                default:
                    break
                }
            }
            includeKnownKeys(known, in: &mapping)
        #endif
        return try nextKey(in: &mapping).map(YAMLKey.other)
    }

    /// Puts the known keys read so far into `mapping`'s index (once).
    private func includeKnownKeys(_ known: YAMLKnownKeys, in mapping: inout YAMLMappingCursor) {
        guard !mapping.knownKeysIncluded else { return }
        mapping.knownKeysIncluded = true
        for index in known.names.indices where mapping.knownSeen & (1 << index) != 0 {
            let name = known.names[index]
            var utf8 = name
            let duplicate = utf8.withUTF8 {
                mapping.keys.insert(name, bytes: UnsafeRawBufferPointer($0), at: knownPosition(index, in: mapping))
            }
            assert(duplicate == nil, "known keys are read once each")
        }
    }

    /// Where the known key `index` of `mapping` was read.
    private func knownPosition(_ index: Int, in mapping: YAMLMappingCursor) -> CompactSourcePosition {
        CompactSourcePosition(
            file: fileNumber, line: Int(mapping.knownLines[index]), column: Int(mapping.knownColumns[index]))
    }
}

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
}

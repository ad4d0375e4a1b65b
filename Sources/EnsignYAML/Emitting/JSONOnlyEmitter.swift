// The emitter of a build without the YAML trait, so that its callers need no `#if`.
#if !YAML
    /// Writes ``YAMLNode`` trees as JSON, which is YAML: this build has no libyaml.
    ///
    /// With the `YAML` trait the emitter writes block YAML with libyaml; without it, it
    /// writes what ``JSONNodeWriter`` writes, so the preferences and overrides files a build
    /// without YAML saves read back in it (and in any YAML build).
    ///
    /// ```swift
    /// let text = try YAMLEmitter().text(for: .mapping(["flags": .mapping([:])]))  // {"flags": {}}
    /// ```
    package struct YAMLEmitter: Sendable {
        /// Creates an emitter.
        package init() {}

        /// The JSON text of `node`.
        package func text(for node: YAMLNode) throws(YAMLError) -> String {
            try JSONNodeWriter().text(for: node)
        }

        /// The JSON text of one document; JSON has no streams of several.
        package func text(forDocuments nodes: [YAMLNode]) throws(YAMLError) -> String {
            guard nodes.count <= 1 else {
                throw YAMLError(
                    .unsupported, at: nodes[1].location,
                    "JSON holds one document, not \(nodes.count); this build of Ensign has no YAML support")
            }
            return try nodes.first.map(text(for:)) ?? "null\n"
        }
    }
#endif

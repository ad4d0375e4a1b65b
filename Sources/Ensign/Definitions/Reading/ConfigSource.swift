import EnsignYAML

/// The bytes of one configuration file and the name used for it in diagnostics.
///
/// Tests build contexts from in-memory sources, with no disk involved:
///
/// ```swift
/// let source = ConfigSource(name: "flags/app.yaml", text: "flags:\n  dark: { default: false }\n")
/// ```
package struct ConfigSource: Sendable, Hashable {
    /// The file's path, or a label such as `<memory>` for in-memory text.
    package var name: String
    /// The file's content.
    package var bytes: [UInt8]

    /// A source from text.
    package init(name: String, text: String) {
        self.name = name
        self.bytes = Array(text.utf8)
    }

    /// A source from bytes.
    package init(name: String, bytes: [UInt8]) {
        self.name = name
        self.bytes = bytes
    }

    /// Reads a file, refusing files larger than `limits` allow.
    package static func file(_ path: String, limits: YAMLLimits = YAMLLimits()) throws(YAMLError) -> ConfigSource {
        ConfigSource(name: path, bytes: try YAMLParser(limits: limits).readFile(at: path))
    }
}

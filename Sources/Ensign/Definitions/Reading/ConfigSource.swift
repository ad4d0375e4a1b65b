/// The bytes of one configuration file and the name used for it in diagnostics.
///
/// Tests build contexts from in-memory sources, with no disk involved:
///
/// ```swift
/// let source = ConfigSource(name: "flags/app.yaml", text: "flags:\n  dark: { default: false }\n")
/// ```
public struct ConfigSource: Sendable, Hashable {
    /// The file's path, or a label such as `<memory>` for in-memory text.
    public var name: String
    /// The file's content.
    public var bytes: [UInt8]

    /// A source from text.
    public init(name: String, text: String) {
        self.name = name
        self.bytes = Array(text.utf8)
    }

    /// A source from bytes.
    public init(name: String, bytes: [UInt8]) {
        self.name = name
        self.bytes = bytes
    }

    /// Reads a file, refusing files larger than `limits` allow.
    public static func file(_ path: String, limits: YAMLLimits = YAMLLimits()) throws(YAMLError) -> ConfigSource {
        ConfigSource(name: path, bytes: try YAMLParser(limits: limits).readFile(at: path))
    }
}

/// Bounds that turn hostile or runaway input into a ``YAMLError`` instead of exhausting memory.
///
/// The defaults fit configuration files comfortably (a 10,000-flag definitions file is
/// about 1 MB) while rejecting "billion laughs" alias bombs and pathological nesting.
///
/// ```swift
/// var limits = YAMLLimits()
/// limits.maximumFileSize = 32 << 20  // allow 32 MiB for a generated file
/// let parser = YAMLParser(limits: limits)
/// ```
public struct YAMLLimits: Sendable, Hashable {
    /// The largest input accepted, in bytes. Default: 8 MiB.
    public var maximumFileSize: Int = 8 << 20
    /// How deeply sequences and mappings may nest. Default: 128.
    public var maximumDepth: Int = 128
    /// How many nodes aliases may copy in one stream, counting every node of each copied
    /// subtree. Default: 100,000.
    public var maximumAliasExpansion: Int = 100_000

    /// Creates the default limits.
    public init() {}
}

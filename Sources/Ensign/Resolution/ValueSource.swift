/// Where a resolved value came from: its layer, the file position that set it, and for
/// overrides who set it and when.
///
/// ```swift
/// let source = context.details(for: .pageSize).source
/// print(source)  // environment flags/environments/staging.yaml:2:27
/// ```
public struct ValueSource: Sendable, Hashable {
    /// The layer.
    public var layer: ValueLayer
    /// The file position, for values from files.
    public var location: SourcePosition?
    /// Who set an override or preference: `code`, `cli`, `menu`, a scope's name, …
    public var actor: String?
    /// When an override or preference was set.
    public var time: WallClockTime?

    /// Creates a source.
    public init(layer: ValueLayer, location: SourcePosition? = nil, actor: String? = nil, time: WallClockTime? = nil) {
        self.layer = layer
        self.location = location
        self.actor = actor
        self.time = time
    }

    /// The code default's source.
    public static let codeDefault = ValueSource(layer: .codeDefault)
}

extension ValueSource: CustomStringConvertible {
    /// `layer file:line:column`, plus `by actor at time` for overrides.
    public var description: String {
        var text = layer.description
        if let location { text += " \(location)" }
        if let actor { text += " by \(actor)" }
        if let time { text += " at \(time)" }
        return text
    }
}

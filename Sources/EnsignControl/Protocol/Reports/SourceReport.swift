import Ensign

/// Where a value comes from, on the wire: its layer, the file position, and for overrides
/// and preferences who set it and when.
///
/// `{"layer": "environment", "file": "flags/environments/development.yaml", "line": 3, "column": 27}`
public struct SourceReport: Codable, Sendable, Hashable, CustomStringConvertible {
    /// The layer: `codeDefault`, `definition`, `environment`, `deployment`, `fleet`,
    /// `targeting`, `preference`, `override` or `scopeOverride`.
    public var layer: String
    /// The file that set the value, when it came from a file.
    public var file: String?
    /// The line in `file` (1-based).
    public var line: Int?
    /// The column in `file` (1-based).
    public var column: Int?
    /// Who set an override or preference: `code`, `cli`, `menu`, …
    public var actor: String?
    /// When an override or preference was set, ISO 8601 in UTC.
    public var time: String?

    /// Creates a source report.
    public init(
        layer: String, file: String? = nil, line: Int? = nil, column: Int? = nil, actor: String? = nil,
        time: String? = nil
    ) {
        self.layer = layer
        self.file = file
        self.line = line
        self.column = column
        self.actor = actor
        self.time = time
    }

    /// The source of a resolved value.
    public init(_ source: ValueSource) {
        self.init(
            layer: source.layer.wireName, file: source.location?.file,
            line: source.location.flatMap { $0.isKnown ? $0.line : nil },
            column: source.location.flatMap { $0.isKnown ? $0.column : nil }, actor: source.actor,
            time: source.time?.description)
    }

    /// `file:line:column`, `file:line` or `file`, when there is a file.
    public var position: String? {
        guard let file else { return nil }
        guard let line else { return file }
        guard let column else { return "\(file):\(line)" }
        return "\(file):\(line):\(column)"
    }

    /// `environment flags/environments/development.yaml:3:27`, `override by cli at …`.
    public var description: String {
        var text = ValueLayer(wireName: layer)?.description ?? layer
        if let position { text += " " + position }
        if let actor { text += " by \(actor)" }
        if let time { text += " at \(time)" }
        return text
    }
}

extension ValueLayer {
    /// The layer's name in the control protocol: `codeDefault`, `definition`, … `scopeOverride`,
    /// the layer's ``ValueLayer/description`` in lower camel case, so the names are written once.
    public var wireName: String {
        let words = description.split(separator: " ")
        return words.enumerated().map {
            $0.offset == 0 ? String($0.element) : $0.element.prefix(1).uppercased() + $0.element.dropFirst()
        }.joined()
    }

    /// The layer named `wireName` in the control protocol.
    public init?(wireName: String) {
        guard let layer = ValueLayer.allCases.first(where: { $0.wireName == wireName }) else { return nil }
        self = layer
    }
}

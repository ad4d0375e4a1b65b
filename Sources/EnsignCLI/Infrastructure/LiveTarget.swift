import Ensign
import EnsignControl

/// How live commands find the app to talk to: `--socket PATH`, `--app NAME`, or the only
/// running app.
enum LiveTarget {
    /// The options every live command accepts, with the help paragraph about choosing the app.
    static let options = OptionGroup(
        "choosing the app",
        [
            .value("socket", "PATH", "the app's control socket", exclusiveGroup: "target"),
            .value("app", "NAME", "the running app with this name", exclusiveGroup: "target"),
        ],
        note: "Without either, the only running app with a control socket in the runtime directory"
            + " ($ENSIGN_RUNTIME_DIR, else $XDG_RUNTIME_DIR/ensign, else /tmp/ensign-<uid>).")

    /// Connects to the app the arguments choose.
    static func connect(_ arguments: ParsedArguments) throws -> ControlClient {
        let target = try target(arguments)
        let connection = Result { () throws(ControlClientError) in try ControlClient.connect(to: target) }
        if case .failure(let error) = connection, error.isTargetAmbiguous {
            throw UsageError(error.description)
        }
        return try connection.get()
    }

    static func target(_ arguments: ParsedArguments) throws(UsageError) -> ControlTarget {
        switch (arguments.option("socket"), arguments.option("app")) {
        case (let path?, nil): return .socket(path)
        case (nil, let name?): return .app(name)
        case (nil, nil): return .automatic
        case (.some, .some): throw UsageError("give --socket or --app, not both")
        }
    }
}

/// How live commands show values and sources.
enum LiveFormat {
    /// A value as JSON text; `(code default)` when none applies.
    static func value(_ value: JSONValue?) -> String {
        guard let value, !value.isNull else { return "(code default)" }
        return value.jsonText
    }

    /// `override by cli`, `environment flags/environments/development.yaml:3:27`.
    static func source(_ source: SourceReport) -> String {
        var text = ValueLayer(wireName: source.layer)?.description ?? source.layer
        if let position = source.position { text += " " + position }
        if let actor = source.actor { text += " by \(actor)" }
        return text
    }

    /// The time of day from an ISO 8601 time: `14:03:07.123`.
    static func timeOfDay(_ time: String) -> String {
        guard let t = time.firstIndex(of: "T") else { return time }
        return String(time[time.index(after: t)...].prefix(12))
    }

    /// `0.012 ms`, `16.4 ms`.
    static func duration(microseconds: Double) -> String {
        let milliseconds = microseconds / 1000
        return milliseconds >= 10 ? "\(Int(milliseconds.rounded())) ms" : "\((milliseconds * 1000).rounded() / 1000) ms"
    }

    /// The object `get --json` prints: key, value, variant, reason, errorCode, errorMessage,
    /// metadata and source (layer, file, line, and column, actor, time when known).
    static func json(_ report: KeyReport) -> JSONValue {
        var source: [String: JSONValue] = [
            "layer": .string(report.source.layer),
            "file": report.source.file.map(JSONValue.string) ?? .null,
            "line": report.source.line.map(JSONValue.int) ?? .null,
        ]
        if let column = report.source.column { source["column"] = .int(column) }
        if let actor = report.source.actor { source["actor"] = .string(actor) }
        if let time = report.source.time { source["time"] = .string(time) }
        return .object([
            "key": .string(report.key),
            "value": report.value,
            "variant": report.variant.map(JSONValue.string) ?? .null,
            "reason": .string(report.reason),
            "errorCode": report.errorCode.map(JSONValue.string) ?? .null,
            "errorMessage": report.errorMessage.map(JSONValue.string) ?? .null,
            "metadata": .object(report.metadata),
            "source": .object(source),
        ])
    }

    /// Any report as JSON, for `--json` output.
    static func json(_ value: some Encodable) throws -> JSONValue {
        try JSONValueEncoder().encode(value)
    }
}

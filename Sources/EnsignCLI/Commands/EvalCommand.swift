import Ensign
import EnsignJSON

/// `ensign eval`: evaluates one flag offline, as flagd would, and prints the details.
enum EvalCommand {
    static let specification = CommandSpecification(
        name: "eval", summary: "Evaluate a flag offline for an evaluation context; print value, variant, reason.",
        arguments: "KEY",
        discussion: """
            PATH is a definitions directory or a single definitions file (flagd JSON works).
            Flags are evaluated like flagd does: targeting against the context, the default
            variant when targeting returns null, the code default (--default) when the flag has
            none, is disabled, or fails.
            """,
        options: [
            .value("flags", "PATH", "the definitions directory or file", required: true),
            .value(
                "env", "E",
                "apply environment E (inline values and environments/E.yaml); E must be an environment the files"
                    + " mention"),
            .value("context", "JSON", "the evaluation context, a JSON object; \"targetingKey\" is the targeting key"),
            .value(
                "type", "T",
                "read the value as boolean, string, integer, float or object; a value of another type gives the"
                    + " default with TYPE_MISMATCH"),
            .value("default", "V", "the code default (JSON, or plain text for strings)"),
            .json("print one object: key, value, variant, reason, errorCode, errorMessage, metadata"),
        ],
        epilogue: """
            exit status: 0 when the flag resolved without an error code, 1 otherwise (and when
            no file mentions the environment E).

            example:
              ensign eval transfers.newFlow --flags flags/ --context '{"targetingKey": "u1", "country": "FR"}'
            """,
        run: run)

    static func run(_ arguments: ParsedArguments, console: inout Console) throws -> Int32 {
        let key = try arguments.onlyPositional()
        guard let path = arguments.option("flags") else { throw UsageError("give the definitions with --flags PATH") }
        let type = try arguments.option("type").map(parseType)
        let context = try arguments.option("context").map(parseContext) ?? .empty
        let codeDefault = arguments.option("default").map(parseValue)
        guard
            let evaluator = OfflineDefinitions.evaluator(
                path: path, environment: arguments.option("env"), console: &console)
        else { return ExitStatus.failure }
        var details = evaluator.details(forKeyNamed: key, context: context)
        if details.value.isNull, let codeDefault { details.value = codeDefault }
        if let type { details = typed(details, as: type, default: codeDefault) }
        if arguments.flag("json") {
            console.print(json(details).jsonText)
        } else {
            var table = TableFormatter(header: ["FIELD", "VALUE"])
            for (field, value) in fields(details) { table.add([field, value]) }
            for line in table.lines(console: console).dropFirst() { console.print(line) }
        }
        return details.errorCode == nil ? ExitStatus.success : ExitStatus.failure
    }

    static func parseType(_ text: String) throws -> FlagType {
        switch text {
        case "boolean", "bool": return .bool
        case "string": return .string
        case "integer", "int": return .int
        case "float", "double": return .double
        case "object": return .object
        default: throw UsageError("--type must be boolean, string, integer, float or object; got '\(text)'")
        }
    }

    static func parseContext(_ text: String) throws -> EvaluationContext {
        let value: JSONValue
        do {
            value = try JSONValue(jsonText: text)
        } catch {
            throw UsageError("--context is not valid JSON (\(error))")
        }
        guard case .object = value else { throw UsageError("--context must be a JSON object") }
        return EvaluationContext(json: value)
    }

    /// JSON when it parses, else the text as a string (so `--default hello` works).
    static func parseValue(_ text: String) -> JSONValue {
        (try? JSONValue(jsonText: text)) ?? .string(text)
    }

    /// The details as a client of `type` sees them: the value converted to the type (a whole
    /// double such as `2.0` is the integer 2), or a mismatch for a value of another type (`2.5`
    /// for an integer).
    static func typed(
        _ details: ResolutionDetails<JSONValue>, as type: FlagType, default codeDefault: JSONValue?
    ) -> ResolutionDetails<JSONValue> {
        guard !details.value.isNull else { return details }
        if let value = type.coerce(details.value) {
            var converted = details
            converted.value = value
            return converted
        }
        var mismatch = details
        mismatch.value = codeDefault ?? .null
        mismatch.variant = nil
        mismatch.reason = .error
        mismatch.errorCode = .typeMismatch
        mismatch.errorMessage = "'\(details.key)' is \(details.value.jsonText), not \(type.withArticle)"
        mismatch.source = .codeDefault
        return mismatch
    }

    static func json(_ details: ResolutionDetails<JSONValue>) -> JSONValue {
        .object([
            "key": .string(details.key),
            "value": details.value,
            "variant": details.variant.map(JSONValue.string) ?? .null,
            "reason": .string(details.reason.rawValue),
            "errorCode": details.errorCode.map { .string($0.rawValue) } ?? .null,
            "errorMessage": details.errorMessage.map(JSONValue.string) ?? .null,
            "metadata": .object(details.metadata),
        ])
    }

    static func fields(_ details: ResolutionDetails<JSONValue>) -> [(String, String)] {
        [
            ("key", details.key),
            ("value", details.value.isNull ? "(code default)" : details.value.jsonText),
            ("variant", details.variant ?? "-"),
            ("reason", details.reason.rawValue),
            ("error", details.errorCode.map { "\($0.rawValue): \(details.errorMessage ?? "")" } ?? "-"),
            ("metadata", details.metadata.isEmpty ? "-" : JSONValue.object(details.metadata).jsonText),
            ("source", details.source.description),
        ]
    }
}

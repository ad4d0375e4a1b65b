import Ensign
import EnsignControl

/// `ensign list`: the keys an app defines, with their types and values.
enum ListCommand {
    static let specification = CommandSpecification(
        name: "list", summary: "List flags and preferences with their values: live from a running app, or offline.",
        discussion: """
            Without --flags, asks the running app for every key's value and where it comes from;
            overridden keys are highlighted. With --flags, reads a definitions directory offline
            and lists every key with its type, default and description.
            """,
        options: [
            .value("flags", "DIR", "read this definitions directory offline instead of asking an app"),
            .value("prefix", "P", "only keys that start with P"),
            .value("set", "ID", "only flags of the flag set ID (flagSetId in a flag's or its file's metadata)"),
            .json(
                "print a JSON array: live, objects with key, kind, type, value, reason, metadata, source, overridden,"
                    + " persisted, description, and variant, errorCode and errorMessage when they are set; offline,"
                    + " objects with key, kind, type, default, description"),
        ],
        sharedOptions: [LiveTarget.options],
        epilogue: """
            examples:
              ensign list
              ensign list --prefix beneficiaries. --json
              ensign list --flags flags/ --prefix beneficiaries.
              ensign list --flags flags/ --set payments
            """,
        run: run)

    static func run(_ arguments: ParsedArguments, console: inout Console) throws -> Int32 {
        if let directory = arguments.option("flags") {
            guard arguments.option("socket") == nil, arguments.option("app") == nil else {
                throw UsageError("--flags reads files offline; it does not go with --socket or --app")
            }
            return listOffline(
                directory, prefix: arguments.option("prefix"), flagSet: arguments.option("set"),
                json: arguments.flag("json"), console: &console)
        }
        let client = try LiveTarget.connect(arguments)
        let flagSet = arguments.option("set")
        let keys = try client.list(prefix: arguments.option("prefix")).filter { key in
            flagSet.map { key.metadata[FlagDefinition.flagSetMetadataKey] == .string($0) } ?? true
        }
        if arguments.flag("json") {
            console.print(try LiveFormat.json(keys).jsonText)
            return ExitStatus.success
        }
        var table = TableFormatter(header: ["KEY", "TYPE", "VALUE", "REASON", "SOURCE"])
        for key in keys {
            table.add([
                key.key, key.type ?? "-", LiveFormat.value(key.value), key.reason, LiveFormat.source(key.source),
            ])
        }
        for (index, line) in table.lines(console: console).enumerated() {
            let isOverridden = index > 0 && keys[index - 1].isOverridden
            console.print(isOverridden ? console.styled(line, .yellow) : line)
        }
        return ExitStatus.success
    }

    static func listOffline(
        _ directory: String, prefix: String?, flagSet: String? = nil, json: Bool, console: inout Console
    ) -> Int32 {
        let loaded = DefinitionLoader().loadDirectory(directory)
        for diagnostic in loaded.diagnostics where diagnostic.isError {
            console.printError(DiagnosticPrinter.format(diagnostic, console: console))
        }
        if loaded.diagnostics.containsErrors { return ExitStatus.failure }
        let definitions = loaded.definitions.keys.filter { $0.hasPrefix(prefix ?? "") }
            .compactMap { loaded.definitions[$0] }
            .filter { definition in flagSet.map { definition.flagSetID == $0 } ?? true }
        if json {
            console.print(JSONValue.array(definitions.map(self.json)).jsonText)
            return ExitStatus.success
        }
        var table = TableFormatter(header: ["KEY", "KIND", "TYPE", "DEFAULT", "DESCRIPTION"])
        for definition in definitions {
            table.add([
                definition.key, definition.kind.rawValue, definition.type.rawValue,
                definition.defaultValue?.value.jsonText ?? "(code default)", definition.summary ?? "",
            ])
        }
        for line in table.lines(console: console) { console.print(line) }
        return ExitStatus.success
    }

    static func json(_ definition: FlagDefinition) -> JSONValue {
        .object([
            "key": .string(definition.key),
            "kind": .string(definition.kind.rawValue),
            "type": .string(definition.type.rawValue),
            "default": definition.defaultValue?.value ?? .null,
            "description": definition.summary.map(JSONValue.string) ?? .null,
        ])
    }
}

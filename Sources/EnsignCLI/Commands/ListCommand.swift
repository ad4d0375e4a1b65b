import Ensign

/// `ensign list`: the keys an app defines, with their types and values.
enum ListCommand: Command {
    static let name = "list"
    static let summary = "List flags and preferences with their types and values."
    static let synopsis = "list --flags DIR [--json]"
    static let details = """
        With --flags, reads a definitions directory offline and lists every key with its
        type, default and description.

        options:
          --flags DIR   the definitions directory to read
          --json        print a JSON array of objects: key, kind, type, default, description

        example:
          ensign list --flags flags/
        """
    static let flags: Set = ["json"]
    static let options: Set = ["flags"]

    static func run(_ arguments: ParsedArguments, console: inout Console) throws -> Int32 {
        guard let directory = arguments.option("flags") else {
            throw UsageError("give the definitions directory with --flags DIR")
        }
        let loaded = DefinitionLoader().loadDirectory(directory)
        for diagnostic in loaded.diagnostics where diagnostic.isError {
            console.printError(DiagnosticPrinter.format(diagnostic, console: console))
        }
        if loaded.diagnostics.containsErrors { return ExitStatus.failure }
        let definitions = loaded.definitions.keys.compactMap { loaded.definitions[$0] }
        if arguments.flag("json") {
            console.print(JSONValue.array(definitions.map(json)).jsonText)
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

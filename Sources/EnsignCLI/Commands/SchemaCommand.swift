import Ensign

/// `ensign schema`: prints the JSON Schema of the definitions format.
enum SchemaCommand: Command {
    static let name = "schema"
    static let summary = "Print the JSON Schema of the definitions file format, for editors."
    static let synopsis = "schema"
    static let details = """
        Save it and point your editor's YAML plug-in at it, for completion and checks while
        you type:

          ensign schema > ensign.schema.json
          # in each definitions file:
          # yaml-language-server: $schema=./ensign.schema.json

        The schema checks structure; 'ensign validate' checks everything else.
        """
    static let flags: Set<String> = []
    static let options: Set<String> = []

    static func run(_ arguments: ParsedArguments, console: inout Console) throws -> Int32 {
        guard arguments.positionals.isEmpty else { throw UsageError("schema takes no arguments") }
        console.print(DefinitionsSchema.document.prettyJSONText)
        return ExitStatus.success
    }
}

import Ensign
import EnsignTooling

/// `ensign schema`: prints the JSON Schema of the definitions format.
enum SchemaCommand {
    static let specification = CommandSpecification(
        name: "schema", summary: "Print the JSON Schema of the definitions file format, for editors.",
        discussion: """
            Save it and point your editor's YAML plug-in at it, for completion and checks while
            you type:

              ensign schema > ensign.schema.json
              # in each definitions file:
              # yaml-language-server: $schema=./ensign.schema.json

            The schema checks structure; 'ensign validate' checks everything else.
            """,
        run: run)

    static func run(_ arguments: ParsedArguments, console: inout Console) throws -> Int32 {
        console.print(DefinitionsSchema.document.prettyJSONText)
        return ExitStatus.success
    }
}

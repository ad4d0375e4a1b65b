/// The list screen's flags (`list.pageSize`, `.sortOrder`, `.showPending`) that the value
/// provider and fleet tests attach their sources over. The one home of this sample's YAML.
///
/// ```swift
/// let context = try AppContext(definitions: ListFixture.definitions)
/// ```
public enum ListFixture {
    /// The three flags, as a definitions file.
    public static let definitions = """
        version: 1
        namespace: list
        flags:
          pageSize: { type: int, default: 20, minimum: 5, maximum: 100 }
          sortOrder: { type: string, enum: [name, recent], default: recent }
          showPending: { type: bool, default: false }
        """

    /// ``definitions`` and more flags of the `list` namespace, each a line such as
    /// `layout: { type: object, default: { columns: 1 } }`.
    public static func definitions(adding flags: String...) -> String {
        definitions + flags.map { "\n  " + $0 }.joined() + "\n"
    }
}

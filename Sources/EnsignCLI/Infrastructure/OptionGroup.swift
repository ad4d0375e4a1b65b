/// Options shown together under a heading in help: a command's own (`options:`) or a set
/// several commands share, such as how live commands choose the app.
struct OptionGroup: Sendable {
    /// The heading, without the colon: `choosing the app`.
    let title: String
    /// The options, in the order help lists them.
    let options: [OptionSpecification]
    /// A paragraph after the options, for what applies to them together.
    let note: String?

    init(_ title: String, _ options: [OptionSpecification], note: String? = nil) {
        self.title = title
        self.options = options
        self.note = note
    }
}

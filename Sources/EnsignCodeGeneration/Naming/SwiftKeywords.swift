/// Names the generator must not declare as they are.
enum SwiftKeywords {
    /// Swift's reserved words (declarations, statements, expressions and types), which need
    /// backticks to be used as names, and a few contextual ones that read as modifiers (`open`,
    /// `async`, `nonisolated`), escaped for clarity. Other contextual keywords (`get`, `set`,
    /// `mutating`, …) are ordinary names where the generator declares them.
    static let reserved: Set<String> = [
        // Declarations.
        "associatedtype", "borrowing", "class", "consuming", "deinit", "enum", "extension", "fileprivate", "func",
        "import", "init", "inout", "internal", "let", "nonisolated", "open", "operator", "private",
        "precedencegroup", "protocol", "public", "rethrows", "static", "struct", "subscript", "typealias", "var",
        // Statements.
        "break", "case", "catch", "continue", "default", "defer", "do", "else", "fallthrough", "for", "guard", "if",
        "in", "repeat", "return", "switch", "throw", "where", "while",
        // Expressions and types.
        "Any", "as", "async", "await", "false", "is", "nil", "self", "Self", "super", "throws", "true", "try",
        "Type", "Protocol",
    ]

    /// Type names a generated enum must not take: Swift keywords that name types, and the
    /// standard-library and Ensign types that generated code and apps refer to, which a
    /// top-level enum of the same name would hide.
    static let shadowedTypeNames: Set<String> = [
        "Any", "Self", "Type", "Protocol",
        "Array", "Bool", "Character", "Dictionary", "Double", "Equatable", "Error", "Float", "Hashable", "Int",
        "Never", "Optional", "Result", "Sendable", "Set", "String", "Void", "CaseIterable", "Codable",
        "AppContext", "CodableFlagValue", "ContextKey", "Ensign", "FlagKey", "FlagKeyKind", "FlagType",
        "FlagValueConvertible", "JSONValue", "KeyKind", "PreferenceKeyKind", "UserPreferenceKey",
    ]
}

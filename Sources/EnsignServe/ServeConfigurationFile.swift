import Ensign
import EnsignSupport
import EnsignYAML

/// `ensign serve --config FILE`: the server's context enrichment kept in a file a deployment
/// ships, YAML or JSON, with flagd's names for its settings:
///
/// ```yaml
/// context-value:          # added to every evaluation's context (flagd's -X)
///   region: eu-west-1
///   tier: "3"
/// context-from-header:    # request header → context key (flagd's -H)
///   X-User-Email: email
/// ```
///
/// Values are strings, as flagd reads them (`tier: 3` is `"3"`; JsonLogic's comparisons read
/// numeric text as numbers). The command line's `--context-value` and `--context-from-header`
/// win over the file's entries with the same key or header. Anything else is refused with the
/// file, line and column, so a misspelt setting never goes unnoticed.
public struct ServeConfigurationFile: Sendable, Equatable {
    /// Static context values: key → value.
    public var contextValues: [String: String] = [:]
    /// Header mappings: lower-cased header name → context key.
    public var contextFromHeaders: [String: String] = [:]

    /// The settings the file may have.
    static let settings = ["context-value", "context-from-header"]

    /// A problem with the file: where, and what.
    public struct Invalid: Error, Sendable, CustomStringConvertible {
        /// `file:line:column: message`.
        public var description: String
    }

    /// Creates an empty configuration.
    public init() {}

    /// Reads the file at `path`.
    ///
    /// - Throws: ``Invalid`` for a file that cannot be read or parsed, a setting that does not
    ///   exist (with a suggestion), or an entry of the wrong shape.
    public init(contentsOf path: String) throws(Invalid) {
        let documents: [YAMLNode]
        do {
            documents = try YAMLParser().documents(contentsOf: path)
        } catch {
            throw Invalid(description: "\(path): \(error)")
        }
        guard documents.count <= 1 else {
            throw Invalid(description: "\(documents[1].location): the serve configuration is one document, not several")
        }
        guard let root = documents.first, !Self.isNull(root) else { return }
        guard let entries = root.mappingEntries else {
            throw Invalid(
                description: "\(root.location): the serve configuration is a mapping, not \(root.kindDescription)")
        }
        for entry in entries {
            let name = entry.key.scalarText ?? ""
            switch name {
            case "context-value":
                contextValues = try Self.pairs(entry.value, setting: name, keyRole: "a context key")
            case "context-from-header":
                let pairs = try Self.pairs(entry.value, setting: name, keyRole: "a header name")
                for (header, key) in pairs {
                    guard Self.isHeaderName(header) else {
                        throw Invalid(
                            description:
                                "\(entry.value.location): '\(header)' under \(name) is not a header name HTTP allows")
                    }
                    contextFromHeaders[header.lowercased()] = key
                }
            default:
                let suggestion = Suggestions.didYouMean(name, among: Self.settings)
                throw Invalid(
                    description: "\(entry.key.location): unknown setting '\(name)'\(suggestion)"
                        + " (the serve configuration has \(Self.settings.joined(separator: " and ")))")
            }
        }
    }

    /// A mapping of scalars to scalars, each read as its text.
    private static func pairs(_ node: YAMLNode, setting: String, keyRole: String) throws(Invalid) -> [String: String] {
        guard let entries = node.mappingEntries else {
            if isNull(node) { return [:] }
            throw Invalid(
                description:
                    "\(node.location): \(setting) is a mapping of \(keyRole) to a value, not \(node.kindDescription)")
        }
        var pairs: [String: String] = [:]
        for entry in entries {
            guard let key = entry.key.scalarText, !key.isEmpty else {
                throw Invalid(description: "\(entry.key.location): each key under \(setting) is \(keyRole), a string")
            }
            guard let value = entry.value.scalarText, !isNull(entry.value) else {
                throw Invalid(
                    description:
                        "\(entry.value.location): '\(key)' under \(setting) needs a value (a string), not \(entry.value.kindDescription)"
                )
            }
            pairs[key] = value
        }
        return pairs
    }

    /// Whether `node` is an empty value (`~`, `null`, nothing): a setting left empty sets nothing.
    private static func isNull(_ node: YAMLNode) -> Bool {
        node.scalarText != nil && node.resolvedScalar == .null
    }

    /// Whether `name` is an HTTP header name (a token: letters, digits and ``!#$%&'*+-.^_`|~``).
    public static func isHeaderName(_ name: some StringProtocol) -> Bool {
        let punctuation = "!#$%&'*+-.^_`|~"
        return !name.isEmpty
            && name.allSatisfy { ($0.isASCII && ($0.isLetter || $0.isNumber)) || punctuation.contains($0) }
    }
}

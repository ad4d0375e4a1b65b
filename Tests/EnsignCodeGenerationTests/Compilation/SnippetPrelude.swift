import Foundation

/// What the documentation's snippets take for granted, declared for each snippet that uses a
/// name without declaring it: a context, the sample app's keys, the objects its examples
/// update. Only type-checked, never run.
enum SnippetPrelude {
    /// A name the documentation uses, its declaration, and the names that declaration needs.
    struct Piece {
        var name: String
        /// Whether the name is a key, declared in a snippet as `static let NAME`.
        var isKey = false
        var needs: [String] = []
        var declaration: String

        /// The key `name` of type `type` (`FlagKey<Bool>`, …), declared as the sample app declares it.
        static func key(_ name: String, _ type: String, _ fullName: String, default value: String) -> Piece {
            Piece(
                name: name, isKey: true,
                declaration: """
                    extension \(type) {
                        static let \(name) = \(type.prefix { $0 != "<" })("\(fullName)", default: \(value))
                    }
                    """)
        }
    }

    static let pieces: [Piece] = [
        Piece(name: "context", declaration: "let context: AppContext = .unconfigured"),
        Piece(name: "root", declaration: "let root: AppContext = .unconfigured"),
        .key("showPendingList", "FlagKey<Bool>", "beneficiaries.showPendingList", default: "false"),
        .key("pageSize", "FlagKey<Int>", "beneficiaries.pageSize", default: "20"),
        .key("darkMode", "UserPreferenceKey<Bool>", "appearance.darkMode", default: "false"),
        Piece(
            name: "list",
            declaration: """
                final class SampleList: Sendable { func reload(pageSize: Int) {} }
                let list = SampleList()
                """),
        Piece(
            name: "banner",
            declaration: """
                @MainActor final class SampleBanner { var isHidden = false }
                @MainActor let banner = SampleBanner()
                """),
        Piece(name: "AuditHook", declaration: "struct AuditHook: EvaluationHook {}"),
        Piece(name: "showPending", declaration: "func showPending() {}"),
        Piece(name: "render", declaration: "func render(showingPending: Bool) {}"),
        Piece(
            name: "logger",
            declaration: """
                struct SampleLogger { func warning(_ message: String) {} }
                let logger = SampleLogger()
                """),
        Piece(
            name: "BeneficiariesModule",
            declaration: "final class BeneficiariesModule { init(context: AppContext) {} }"),
        Piece(
            name: "BeneficiariesScreen", needs: ["pageSize"],
            declaration: "struct BeneficiariesScreen { @ContextValue(.pageSize) var pageSize }"),
        Piece(
            name: "definitions",
            declaration: """
                let definitions = "flags: { beneficiaries.pageSize: { type: int, default: 20 } }"
                """),
        Piece(name: "provider", declaration: "let provider = InMemoryValueProvider([:])"),
        // The remote flag service the provider examples talk to: a stand-in client.
        Piece(
            name: "RemoteFlagClient",
            declaration: """
                enum RemoteFlagEvent: Sendable {
                    case values([String: JSONValue], revision: Int64)
                    case connected(revision: Int64)
                    case failed(any Error)
                }
                final class RemoteFlagClient: Sendable {
                    init(url: String) {}
                    var lastValues: ProvidedValues { ProvidedValues() }
                    func subscribe(_ handler: @escaping @Sendable (RemoteFlagEvent) -> Void) {}
                    func unsubscribe() {}
                }
                """),
        Piece(
            name: "client", needs: ["RemoteFlagClient"],
            declaration: "let client = RemoteFlagClient(url: \"https://flags.example/bank\")"),
        Piece(
            name: "FakeFlagServer", needs: ["RemoteFlagClient"],
            declaration: """
                final class FakeFlagServer: Sendable {
                    init(values: [String: JSONValue]) {}
                    var client: RemoteFlagClient { RemoteFlagClient(url: "http://127.0.0.1:8016") }
                    func set(_ key: String, _ value: JSONValue) {}
                }
                """),
        Piece(
            name: "RemoteFlags", needs: ["RemoteFlagClient"],
            declaration: """
                final class RemoteFlags: ValueProvider {
                    let name = "remote"
                    let client: RemoteFlagClient
                    init(client: RemoteFlagClient) { self.client = client }
                    func currentValues() -> ProvidedValues { client.lastValues }
                    func start(delivering updates: ValueProviderUpdates) {}
                    func stop() {}
                }
                """),
        Piece(
            name: "showPendingBeneficiariesList", isKey: true,
            declaration: """
                extension FlagKey<Bool> {
                    static let showPendingBeneficiariesList = FlagKey(
                        "beneficiaries.showPendingBeneficiariesList", default: false)
                }
                """),
        // The server article's request and response: stand-ins for any HTTP framework's.
        Piece(
            name: "Request",
            declaration: """
                struct SampleUser: Sendable { var id: String; var plan: String }
                struct Request: Sendable { var user: SampleUser; var headers: [String: String] }
                """),
        Piece(name: "Response", declaration: "struct Response: Sendable {}"),
        Piece(
            name: "renderPage", needs: ["Response"],
            declaration: "func renderPage(showingPending: Bool, pageSize: Int) async throws -> Response { Response() }"),
        Piece(
            name: "BeneficiariesList",
            declaration: """
                struct BeneficiariesList {
                    @ContextValue(FlagKey("pageSize", default: 20)) var pageSize
                    func render() {}
                }
                """),
    ]

    /// The imports a snippet needs beyond its own: `Ensign`, and the module it documents.
    static func imports(for snippet: DocumentationSnippet) -> String {
        var modules = ["Ensign"]
        for module in ["EnsignControl", "EnsignFleet", "EnsignTesting", "EnsignDebugMenu", "EnsignTelemetry"]
        where snippet.origin.hasPrefix("Sources/\(module)/") {
            modules.append(module)
        }
        return modules.filter { !snippet.code.contains("import \($0)\n") }.map { "import \($0)\n" }.joined()
    }

    /// The prelude file for `snippet`: the pieces it uses and does not declare.
    static func source(for snippet: DocumentationSnippet) -> String {
        var chosen: [String] = []
        func add(_ name: String) {
            guard !chosen.contains(name), let piece = pieces.first(where: { $0.name == name }) else { return }
            piece.needs.forEach(add)
            chosen.append(name)
        }
        for piece in pieces where uses(snippet.code, piece.name) && !declares(snippet.code, piece) {
            add(piece.name)
        }
        let declarations = chosen.compactMap { name in pieces.first { $0.name == name }?.declaration }
        return (["import Ensign"] + declarations).joined(separator: "\n\n") + "\n"
    }

    static func uses(_ code: String, _ name: String) -> Bool {
        code.range(of: "\\b\(name)\\b", options: .regularExpression) != nil
    }

    static func declares(_ code: String, _ piece: Piece) -> Bool {
        let pattern =
            piece.isKey
            ? "static let \(piece.name)\\b"
            : "(^|\\n)\\s*(let|var|func|struct|final class|class|enum)\\s+\(piece.name)\\b"
        return code.range(of: pattern, options: .regularExpression) != nil
    }
}

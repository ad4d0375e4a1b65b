import Dispatch
import EnsignSupport
import EnsignTestTraits
import Foundation
import Synchronization
import Testing

/// Every Swift snippet a reader can copy — from the README, the DocC articles and the doc
/// comments of public declarations — type-checks against this build's modules, so a renamed
/// API cannot leave the documentation behind.
///
/// Each snippet is compiled on its own as a program's top-level code (`main.swift`), next to a
/// prelude that declares what the documentation takes for granted (`context`, the sample
/// keys, a list to reload): only the pieces the snippet uses and does not declare itself. A
/// snippet that is not Swift for an app, or cannot be compiled here, says so in the text just
/// above its fence, `<!-- not compiled: REASON -->`, and the reason is checked to be there.
@Suite("Documentation snippets compile")
struct DocumentationSnippetTests {
    @Test("Every README, article and public doc-comment snippet type-checks", .blocksItsThread)
    func snippetsCompile() throws {
        let snippets = try DocumentationSnippets.all()
        #expect(snippets.count >= 60, "found only \(snippets.count) snippets: is the extraction broken?")
        let compiled = snippets.filter { $0.exemption == nil }
        let failures = LockedList()
        // Two threads of our own, not Dispatch's concurrentPerform: Foundation's Process waits
        // on a queue with DispatchQueue.sync, which traps when called from a Dispatch worker
        // that already drains it (seen once under `swift test --parallel`).
        let finished = DispatchSemaphore(value: 0)
        let workers = 2
        for worker in 0..<workers {
            let thread = Thread {
                for index in stride(from: worker, to: compiled.count, by: workers) {
                    let snippet = compiled[index]
                    do {
                        let result = try Self.typecheck(snippet)
                        if result.status != 0 {
                            failures.append("\(snippet.origin):\n\(snippet.code)\n\(result.output)")
                        }
                    } catch {
                        failures.append("\(snippet.origin): \(error)")
                    }
                }
                finished.signal()
            }
            thread.start()
        }
        for _ in 0..<workers { finished.wait() }
        for failure in failures.items { Issue.record("a snippet does not compile — \(failure)") }
    }

    @Test("A snippet left out says why, and only snippets that cannot compile are left out", .blocksItsThread)
    func exemptionsGiveReasons() throws {
        let exempt = try DocumentationSnippets.all().filter { $0.exemption != nil }
        // Four of them are the SwiftUI article's: SwiftUI exists on Apple platforms only.
        #expect(exempt.count <= 10, "\(exempt.map(\.origin))")
        for snippet in exempt {
            #expect(snippet.exemption?.count ?? 0 >= 10, "\(snippet.origin): give the reason")
            if let result = try? Self.typecheck(snippet) {
                #expect(result.status != 0, "\(snippet.origin) compiles: remove its 'not compiled' note")
            }
        }
    }

    @Test("The prelude supplies a name only where the snippet does not declare it")
    func preludeStepsAside() {
        let declaring = DocumentationSnippet(
            origin: "test", code: "let context = AppContext(values: [:])\nprint(context[.pageSize])", exemption: nil)
        let prelude = SnippetPrelude.source(for: declaring)
        #expect(!prelude.contains("let context"))
        #expect(prelude.contains("static let pageSize"))
        #expect(!prelude.contains("showPendingList"))
    }

    /// Type-checks a snippet as top-level code, with its prelude, against this build.
    static func typecheck(_ snippet: DocumentationSnippet) throws -> SwiftCompiler.Result {
        try SwiftCompiler.withScratchDirectory("snippet") { directory in
            let main = directory.appendingPathComponent("main.swift")
            let prelude = directory.appendingPathComponent("Prelude.swift")
            let imports = SnippetPrelude.imports(for: snippet)
            try (imports + snippet.code).write(to: main, atomically: true, encoding: .utf8)
            try SnippetPrelude.source(for: snippet).write(to: prelude, atomically: true, encoding: .utf8)
            return try SwiftCompiler.typecheckProgram(main: main.path, others: [prelude.path])
        }
    }
}

/// Failures collected from concurrent compiles.
private final class LockedList: Sendable {
    private let storage = LockedState<[String]>([])
    func append(_ item: String) { storage.withLock { $0.append(item) } }
    var items: [String] { storage.withLock { $0 } }
}

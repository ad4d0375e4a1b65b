import Foundation

/// One Swift snippet from the documentation.
struct DocumentationSnippet: Sendable {
    /// Where it is: `README.md snippet 2`, `Sources/Ensign/Context/AppContext.swift:27`.
    var origin: String
    /// The code, without the fence or the `///` of a doc comment.
    var code: String
    /// Why it is not compiled, from a `<!-- not compiled: REASON -->` line above its fence.
    var exemption: String?
}

/// Finds the snippets: fenced `swift` blocks in the README and the DocC articles, and in the
/// doc comments of public declarations of the library's sources (what DocC publishes).
enum DocumentationSnippets {
    static let root = SwiftCompiler.packageRoot

    static func all() throws -> [DocumentationSnippet] {
        var snippets: [DocumentationSnippet] = []
        let articles = try FileManager.default.contentsOfDirectory(
            atPath: root.appendingPathComponent("Sources/Ensign/Ensign.docc").path
        ).filter { $0.hasSuffix(".md") }.sorted().map { "Sources/Ensign/Ensign.docc/\($0)" }
        for path in ["README.md"] + articles {
            let lines = try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
                .components(separatedBy: "\n")
            snippets += fencedBlocks(in: lines, origin: path)
        }
        for path in try swiftSources(under: "Sources") {
            let lines = try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
                .components(separatedBy: "\n")
            snippets += docCommentBlocks(in: lines, origin: path)
        }
        return snippets
    }

    /// The ```swift blocks of Markdown lines, each with the exemption written above it.
    static func fencedBlocks(in lines: [String], origin: String) -> [DocumentationSnippet] {
        var snippets: [DocumentationSnippet] = []
        var index = 0
        while index < lines.count {
            guard lines[index].trimmingCharacters(in: .whitespaces) == "```swift" else {
                index += 1
                continue
            }
            let start = index
            var body: [String] = []
            index += 1
            while index < lines.count, lines[index].trimmingCharacters(in: .whitespaces) != "```" {
                body.append(lines[index])
                index += 1
            }
            let above = start > 0 ? lines[start - 1] : ""
            snippets.append(
                DocumentationSnippet(
                    origin: "\(origin):\(start + 1)", code: body.joined(separator: "\n") + "\n",
                    exemption: exemption(in: above)))
            index += 1
        }
        return snippets
    }

    /// The ```swift blocks in doc comments (`///`) that document a public declaration.
    static func docCommentBlocks(in lines: [String], origin: String) -> [DocumentationSnippet] {
        var snippets: [DocumentationSnippet] = []
        var index = 0
        while index < lines.count {
            let trimmed = lines[index].trimmingCharacters(in: .whitespaces)
            guard trimmed.hasPrefix("///") else {
                index += 1
                continue
            }
            var comment: [String] = []
            while index < lines.count, lines[index].trimmingCharacters(in: .whitespaces).hasPrefix("///") {
                var text = String(lines[index].trimmingCharacters(in: .whitespaces).dropFirst(3))
                if text.hasPrefix(" ") { text.removeFirst() }
                comment.append(text)
                index += 1
            }
            // The declaration the comment documents, past attributes.
            var declaration = index
            while declaration < lines.count, lines[declaration].trimmingCharacters(in: .whitespaces).hasPrefix("@") {
                declaration += 1
            }
            let documented = declaration < lines.count ? lines[declaration] : ""
            guard documented.contains("public ") else { continue }
            snippets += fencedBlocks(in: comment, origin: origin).map { snippet in
                var located = snippet
                located.origin = "\(origin) (doc comment ending at line \(index))"
                return located
            }
        }
        return snippets
    }

    /// `REASON` from `<!-- not compiled: REASON -->`, when the line is one.
    static func exemption(in line: String) -> String? {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        let prefix = "<!-- not compiled: "
        guard trimmed.hasPrefix(prefix), trimmed.hasSuffix("-->") else { return nil }
        return String(trimmed.dropFirst(prefix.count).dropLast(3)).trimmingCharacters(in: .whitespaces)
    }

    /// The Swift files of the library products under `directory`, relative to the root.
    static func swiftSources(under directory: String) throws -> [String] {
        let modules = ["Ensign", "EnsignControl", "EnsignFleet", "EnsignTesting", "EnsignDebugMenu"]
        var paths: [String] = []
        for module in modules {
            let base = root.appendingPathComponent("\(directory)/\(module)")
            guard let enumerator = FileManager.default.enumerator(atPath: base.path) else { continue }
            for case let path as String in enumerator where path.hasSuffix(".swift") {
                paths.append("\(directory)/\(module)/\(path)")
            }
        }
        return paths.sorted()
    }
}

import EnsignTestSupport
import EnsignTestTraits
import Foundation
import Testing

/// SwiftUI exists on Apple platforms only, so `EnsignSwiftUI` is compiled there and not in
/// this project's CI. What Linux can check: every file is wrapped in `#if canImport(SwiftUI)`
/// (so the module builds, empty, everywhere), and parses as Swift.
@Suite("The SwiftUI glue parses and is compiled only where SwiftUI exists")
struct SwiftUIGlueTests {
    static let directory = BuiltExecutable.packageRoot.appendingPathComponent("Sources/EnsignSwiftUI")

    static func files() throws -> [URL] {
        try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "swift" }.sorted { $0.path < $1.path }
    }

    @Test("Every file is wholly inside #if canImport(SwiftUI) … #endif")
    func wrapped() throws {
        let files = try Self.files()
        #expect(files.count >= 4, "\(files.map(\.lastPathComponent))")
        for file in files {
            let lines = try String(contentsOf: file, encoding: .utf8).split(
                separator: "\n", omittingEmptySubsequences: true)
            #expect(
                lines.first == "#if canImport(SwiftUI)", "\(file.lastPathComponent) starts with \(lines.first ?? "")")
            #expect(lines.last == "#endif", "\(file.lastPathComponent) ends with \(lines.last ?? "")")
        }
    }

    @Test("Every file parses (swiftc -parse, with the condition's branch taken)", .blocksItsThread)
    func parses() throws {
        for file in try Self.files() {
            // -parse checks syntax without resolving names; -D cannot make canImport true, so
            // the check parses the body with the #if line replaced by one that holds.
            let source = try String(contentsOf: file, encoding: .utf8)
                .replacingOccurrences(of: "#if canImport(SwiftUI)", with: "#if true")
            let scratch = FileManager.default.temporaryDirectory
                .appendingPathComponent("ensign-swiftui-\(UUID().uuidString)-\(file.lastPathComponent)")
            try source.write(to: scratch, atomically: true, encoding: .utf8)
            defer { try? FileManager.default.removeItem(at: scratch) }
            let result = try BuiltExecutable.run(
                executable: URL(fileURLWithPath: "/usr/bin/env"),
                ["swiftc", "-parse", "-swift-version", "6", scratch.path])
            #expect(result.status == 0, "\(file.lastPathComponent):\n\(result.output)\(result.errors)")
        }
    }
}

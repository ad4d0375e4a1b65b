import EnsignTestSupport
import Foundation
import Testing

/// The core promises apps a library without Foundation (smaller binaries, no ICU): these
/// checks fail as soon as anything in `Ensign`, `EnsignYAML` or `EnsignSupport` brings it back.
@Suite("The core links no Foundation")
struct CoreDependencyTests {
    /// What an import of a Foundation module looks like, with attributes and kinds allowed.
    static var foundationImport: Regex<(Substring, Substring?, Substring?, Substring?, Substring?)> {
        #/^\s*(@[A-Za-z_]+(\([^)]*\))?\s+)*import\s+((class|struct|enum|protocol|func|var|let|typealias)\s+)?_?Foundation/#
    }

    @Test("No source file of Ensign, EnsignYAML or EnsignSupport imports a Foundation module")
    func noFoundationImport() throws {
        var offenders: [String] = []
        for target in ["Sources/Ensign", "Sources/EnsignYAML", "Sources/EnsignSupport"] {
            let root = BuiltExecutable.packageRoot.appendingPathComponent(target)
            let files = try FileManager.default.subpathsOfDirectory(atPath: root.path)
            #expect(files.contains { $0.hasSuffix(".swift") }, "\(target) should have sources")
            for file in files where file.hasSuffix(".swift") {
                let text = try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
                for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
                where line.contains("Foundation") && line.firstMatch(of: Self.foundationImport) != nil {
                    offenders.append("\(target)/\(file):\(number + 1): \(line)")
                }
            }
        }
        #expect(offenders.isEmpty, "the core must not import Foundation:\n\(offenders.joined(separator: "\n"))")
    }

    @Test("The pattern finds the import forms Swift accepts")
    func patternFindsImports() {
        let found = [
            "import Foundation", "  @preconcurrency import Foundation", "import struct Foundation.Date",
            "@_exported import FoundationEssentials", "@_implementationOnly import Foundation",
        ]
        let ignored = ["// import Foundation", "let text = \"import Foundation\"", "import Dispatch"]
        #expect(found.allSatisfy { $0.firstMatch(of: Self.foundationImport) != nil })
        #expect(ignored.allSatisfy { $0.firstMatch(of: Self.foundationImport) == nil })
    }

    @Test("An app that depends only on Ensign runs, a targeted flag included")
    func coreAppRuns() throws {
        let result = try BuiltExecutable.run("EnsignCoreApp", [])
        #expect(result.status == 0)
        #expect(result.output == "ok true\n")
    }

    #if os(Linux)
        @Test("An app that depends only on Ensign needs no Foundation or ICU library")
        func coreAppLinksNoFoundation() throws {
            let app = BuiltExecutable.url(named: "EnsignCoreApp")
            let result = try BuiltExecutable.run(
                executable: URL(fileURLWithPath: "/usr/bin/readelf"), ["--dynamic", app.path])
            try #require(result.status == 0, "readelf failed: \(result.errors)")
            let needed = result.output.split(separator: "\n").filter { $0.contains("(NEEDED)") }
            #expect(needed.contains { $0.contains("libswiftCore") }, "readelf should list the Swift runtime")
            let foundation = needed.filter { $0.contains("Foundation") || $0.contains("icu") }
            #expect(
                foundation.isEmpty,
                """
                EnsignCoreApp links \(foundation.joined(separator: ", ")). (After an import is removed, an \
                incremental build can keep it in stale objects: rm -rf .build/debug/Ensign.build)
                """)
        }
    #endif
}

import EnsignTestSupport
import Foundation
import Testing

/// The app-facing module shows apps what apps use: the README promises at most 40 public
/// top-level types, and every one of them in the DocC catalogue's topics.
@Suite("The public surface of Ensign")
struct PublicSurfaceTests {
    /// A public top-level declaration of a type: `public struct Name`, `public final class Name`, …
    static var declaration: Regex<(Substring, Substring?, Substring, Substring)> {
        #/^public\s+(final\s+)?(struct|class|enum|protocol|actor|typealias)\s+([A-Za-z_][A-Za-z0-9_]*)/#
    }

    /// The public top-level type names declared in `Sources/Ensign`.
    static func publicTypes() throws -> Set<String> {
        let root = BuiltExecutable.packageRoot.appendingPathComponent("Sources/Ensign")
        var names = Set<String>()
        for file in try FileManager.default.subpathsOfDirectory(atPath: root.path) where file.hasSuffix(".swift") {
            let text = try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
            for line in text.split(separator: "\n") {
                if let match = line.firstMatch(of: declaration) { names.insert(String(match.output.3)) }
            }
        }
        return names
    }

    @Test("Ensign has at most 40 public top-level types, and the catalogue lists each")
    func atMostFortyTypes() throws {
        let names = try Self.publicTypes()
        #expect(names.count >= 30, "found only \(names.count): is the scan broken?")
        #expect(names.count <= 40, "\(names.count) public top-level types: \(names.sorted())")
        let catalogue = try String(
            contentsOf: BuiltExecutable.packageRoot.appendingPathComponent("Sources/Ensign/Ensign.docc/Ensign.md"),
            encoding: .utf8)
        for name in names.sorted() {
            #expect(catalogue.contains("``\(name)``"), "\(name) is public but not in Ensign.md's topics")
        }
    }

    @Test("The scan finds the declaration forms the module uses, and nothing nested or package")
    func scanFindsDeclarations() {
        let found = ["public struct A: Sendable {", "public final class B {", "public typealias C<V> = D<V>"]
        let ignored = ["    public struct Nested {", "package struct E {", "/// public struct F"]
        #expect(found.allSatisfy { $0.firstMatch(of: Self.declaration) != nil })
        #expect(ignored.allSatisfy { $0.firstMatch(of: Self.declaration) == nil })
    }
}

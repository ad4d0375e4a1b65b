import EnsignTestSupport
import Testing

@testable import Ensign

extension EvaluationTests {
    /// The compiler's shared paths against the arrays they stand for.
    @Suite("Targeting paths")
    struct TargetingPathTests {
        /// A random path of up to 6 components, keys drawn from a few names so that paths collide.
        static func randomComponents(_ generator: inout SplitMix64) -> [TargetingPathComponent] {
            let names = ["if", "in", "var", "fractional", ""]
            return (0..<Int(generator.next() % 7)).map { _ in
                generator.next() % 2 == 0
                    ? .key(names[Int(generator.next() % UInt64(names.count))]) : .index(Int(generator.next() % 3))
            }
        }

        static func path(_ components: [TargetingPathComponent]) -> TargetingPath {
            components.reduce(.root) { $0.appending($1) }
        }

        @Test("A path spells out the components it was built from, and compares and hashes as they do")
        func matchesArrays() {
            var generator = SplitMix64(seed: 41)
            for _ in 0..<2_000 {
                let (left, right) = (Self.randomComponents(&generator), Self.randomComponents(&generator))
                let (leftPath, rightPath) = (Self.path(left), Self.path(right))
                #expect(leftPath.components == left)
                #expect((leftPath == rightPath) == (left == right), "\(left) vs \(right)")
                if leftPath == rightPath { #expect(leftPath.hashValue == rightPath.hashValue) }
            }
        }

        @Test("Paths that share a parent stay apart, and the parent is unchanged")
        func sharedParents() {
            let parent = Self.path(["if", 0])
            let (first, second) = (parent.appending(.key("in")), parent.appending(.index(1)))
            #expect(first.components == ["if", 0, "in"])
            #expect(second.components == ["if", 0, 1])
            #expect(parent.components == ["if", 0])
            #expect(first != second)
            #expect(first == Self.path(["if", 0, "in"]))
            #expect(TargetingPath.root.components.isEmpty)
        }

        @Test("A possible result made from an array keeps it, and equals one the compiler made")
        func stringResults() throws {
            let made = TargetingStringResult(value: "on", path: ["if", 1])
            #expect(made.path == ["if", 1])
            let rule = try TargetingRule(compiling: ["if": [true, "on", "off"]])
            #expect(rule.possibleStringResults.contains(made))
            #expect(Set(rule.possibleStringResults).contains(made))
        }
    }
}

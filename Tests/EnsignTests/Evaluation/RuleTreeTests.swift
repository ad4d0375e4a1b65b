import EnsignTestSupport
import EnsignYAML
import Testing

@testable import Ensign

extension EvaluationTests {
    /// The compiler's reading of a rule against the JSON values it stands for.
    @Suite("Rule trees")
    struct RuleTreeTests {
        static func randomValue(_ generator: inout SplitMix64, depth: Int = 0) -> JSONValue {
            switch generator.next() % (depth > 3 ? 4 : 7) {
            case 0: return .int(Int(generator.next() % 200) - 100)
            case 1: return .double([0.5, -2.25, 1e300][Int(generator.next() % 3)])
            case 2: return .string(["on", "off", "a\"b", "é"][Int(generator.next() % 4)])
            case 3: return generator.next() % 2 == 0 ? .null : .bool(generator.next() % 2 == 0)
            case 4, 5:
                return .array((0..<Int(generator.next() % 4)).map { _ in randomValue(&generator, depth: depth + 1) })
            default:
                let count = Int(generator.next() % 3)  // one member (an operation) a third of the time
                return .object(
                    Dictionary(
                        uniqueKeysWithValues: (0..<count).map { ("k\($0)", randomValue(&generator, depth: depth + 1)) })
                )
            }
        }

        /// Whether `tree` holds plain arrays as `values` and one-member objects as operations, throughout.
        static func isCanonical(_ tree: RuleTree) -> Bool {
            switch tree {
            case .scalar: return true
            case .values(let values): return !values.contains { $0.arrayValue != nil || $0.objectValue != nil }
            case .array(let elements):
                return elements.contains(where: \.isCollection) && elements.allSatisfy(isCanonical)
            case .operation(_, let operand): return operand.count == 1 && isCanonical(operand[0])
            case .object(let members): return members.count != 1
            }
        }

        @Test("A tree read from values or from their YAML gives the values back, and its text reads back as them")
        func readsBack() throws {
            var generator = SplitMix64(seed: 99)
            for _ in 0..<1_500 {
                let value = Self.randomValue(&generator)
                let fromValue = RuleTree(value)
                #expect(fromValue.value == value)
                #expect(Self.isCanonical(fromValue), "\(value)")
                let node = try #require(
                    try YAMLParser().documents(fromJSON: Array(value.jsonText.utf8), file: "r.json").first)
                let fromNode = RuleTree(node)
                #expect(fromNode.value == value)
                #expect(Self.isCanonical(fromNode), "\(value)")
                var text: [UInt8] = []
                #expect(fromNode.appendExactJSON(to: &text))
                let reread = try #require(try YAMLParser().documents(fromJSON: text, file: "t.json").first)
                #expect(JSONValue(reread) == value)
            }
        }
    }
}

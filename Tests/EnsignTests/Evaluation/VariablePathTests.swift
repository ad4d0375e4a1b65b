import EnsignTestSupport
import Testing

@testable import Ensign

extension EvaluationTests {
    @Suite("var paths")
    struct VariablePathTests {
        @Test("A path is split at dots exactly as splitting the text would, with or without a dot in it")
        func splitsLikeText() {
            var generator = SplitMix64(seed: 7)
            let pieces = ["country", ".", "..", "0", "user", "é", "e\u{301}", "", "$flagd", "1.5"]
            for _ in 0..<2_000 {
                let text = (0..<Int(generator.next() % 5)).map { _ in
                    pieces[Int(generator.next() % UInt64(pieces.count))]
                }.joined()
                let path = VariablePath(key: .string(text))
                #expect(path.components.map(\.key) == text.split(separator: ".").map(String.init), "\(text)")
                #expect(
                    path.components.map(\.index)
                        == text.split(separator: ".").map { VariablePath.Component.goArrayIndex($0) })
            }
        }
    }
}

import EnsignTestSupport

/// Makes flag sets and contexts from a seed, weighted like real flag files: mostly
/// well-formed flags with `if`/`fractional` rules over a handful of attributes, and a steady
/// trickle of the odd things real files and callers also contain (missing or null defaults,
/// disabled flags, wrong-typed variants, numbers as strings, non-ASCII keys, escapes, rules
/// flagd evaluates although a strict compiler would refuse them).
///
/// The weights are written where each choice is made, as percentages (or relative weights
/// in `choose`); the Conformance article summarises them. The same seed always makes the
/// same case, on every platform (``SplitMix64``).
struct DifferentialGenerator {
    var random: SplitMix64
    /// The evaluators of the set being generated (names a `$ref` may use).
    var evaluatorNames: [String] = []
    /// Whether literals are ASCII only (while an evaluator's body is made).
    var asciiLiterals = false

    init(seed: UInt64) {
        random = SplitMix64(seed: seed)
    }

    /// The case for `seed`: a flag set of one to three flags, four to six contexts, every
    /// flag evaluated in every context.
    static func makeCase(seed: UInt64) -> DifferentialCase {
        var generator = DifferentialGenerator(seed: seed)
        return generator.makeCase(seed: seed)
    }

    mutating func makeCase(seed: UInt64) -> DifferentialCase {
        var document: [(String, GeneratedJSON)] = []
        if chance(25) {
            let evaluators = makeEvaluators()
            evaluatorNames = evaluators.map(\.0)
            document.append(("$evaluators", .members(evaluators)))
        }
        let flagCount = 1 + choose([40, 35, 25])
        var flags: [(key: String, flag: GeneratedJSON, kind: FlagKind)] = []
        while flags.count < flagCount {
            let key = flagKey()
            guard !flags.contains(where: { $0.key.unicodeScalars.elementsEqual(key.unicodeScalars) }) else { continue }
            let kind = flagKind()
            flags.append((key, makeFlag(kind: kind), kind))
        }
        document.insert(("flags", .members(flags.map { ($0.key, $0.flag) })), at: 0)
        let contexts = (0..<(4 + Int(random.next(below: 3)))).map { _ in makeContext() }
        var evaluations: [DifferentialCase.Evaluation] = []
        for context in contexts {
            for flag in flags {
                let type = chance(90) ? flag.kind : pick(FlagKind.allCases)
                evaluations.append(.init(flagKey: flag.key, type: type, context: context))
            }
        }
        if chance(4) {
            // A key the set does not define, or the decomposed twin of one it does.
            let key = chance(50) ? "missing-flag" : pick(flags).key.decomposedTwin
            evaluations.append(.init(flagKey: key, type: flags[0].kind, context: contexts[0]))
        }
        return DifferentialCase(
            seed: seed, flagSet: .members(document), escapesNonASCII: chance(15), evaluations: evaluations)
    }

    // MARK: Choosing

    /// True `percent` times in a hundred.
    mutating func chance(_ percent: Int) -> Bool { Int(random.next(below: 100)) < percent }

    /// An element of `options`, uniformly.
    mutating func pick<T>(_ options: [T]) -> T { options[Int(random.next(below: UInt64(options.count)))] }

    /// An index of `weights`, each as likely as its weight.
    mutating func choose(_ weights: [Int]) -> Int {
        var roll = Int(random.next(below: UInt64(weights.reduce(0, +))))
        for (index, weight) in weights.enumerated() {
            if roll < weight { return index }
            roll -= weight
        }
        return weights.count - 1
    }
}

extension String {
    /// The string with each precomposed letter the generator uses decomposed (NFD), which is
    /// canonically equivalent but another sequence of scalars: flagd tells them apart.
    var decomposedTwin: String {
        var scalars = String.UnicodeScalarView()
        for scalar in unicodeScalars {
            switch scalar {
            case "é": scalars.append(contentsOf: "e\u{301}".unicodeScalars)
            case "ë": scalars.append(contentsOf: "e\u{308}".unicodeScalars)
            case "É": scalars.append(contentsOf: "E\u{301}".unicodeScalars)
            default: scalars.append(scalar)
            }
        }
        let twin = String(scalars)
        return twin.unicodeScalars.elementsEqual(unicodeScalars) ? self + "-twin" : twin
    }
}

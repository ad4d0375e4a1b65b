/// Makes an unexplained mismatch as small as it will go while it stays one: drops the other
/// flags and the evaluators, then shrinks the flag's rule tree and the context node by node
/// (a node replaced by one of its children, an element or member removed), greedily, within
/// a bounded number of replays.
struct DifferentialShrinker {
    let stillFails: (DifferentialCase) -> Bool
    var maximumReplays = 250

    func shrink(_ failing: DifferentialCase) -> DifferentialCase {
        var current = failing
        var replays = 0
        var improved = true
        while improved, replays < maximumReplays {
            improved = false
            for candidate in candidates(of: current) where replays < maximumReplays {
                replays += 1
                if stillFails(candidate) {
                    current = candidate
                    improved = true
                    break
                }
            }
        }
        return current
    }

    /// Smaller versions of a one-evaluation case, the biggest cuts first.
    func candidates(of testCase: DifferentialCase) -> [DifferentialCase] {
        let key = testCase.evaluations[0].flagKey
        var result: [DifferentialCase] = []
        let flags = testCase.flagSet["flags"]
        if case .object(let members)? = flags, members.count > 1 {
            let own = members.filter { $0.key.unicodeScalars.elementsEqual(key.unicodeScalars) }
            result.append(testCase.withFlagSet(testCase.flagSet.setting("flags", to: .object(own))))
        }
        if testCase.flagSet["$evaluators"] != nil {
            result.append(testCase.withFlagSet(testCase.flagSet.removing("$evaluators")))
        }
        if testCase.escapesNonASCII {
            var plain = testCase
            plain.escapesNonASCII = false
            result.append(plain)
        }
        if let flag = flags?[key], case .object(let variants)? = flag["variants"], variants.count > 1 {
            // The variant the default names stays: without it the flag is another kind of odd.
            let defaultName = flag["defaultVariant"]
            for index in variants.indices where defaultName != .string(variants[index].key) {
                var fewer = variants
                fewer.remove(at: index)
                let newFlags = flags!.setting(key, to: flag.setting("variants", to: .object(fewer)))
                result.append(testCase.withFlagSet(testCase.flagSet.setting("flags", to: newFlags)))
            }
        }
        if let flag = flags?[key], let targeting = flag["targeting"] {
            for smaller in Self.reductions(of: targeting) {
                let newFlags = flags!.setting(key, to: flag.setting("targeting", to: smaller))
                result.append(testCase.withFlagSet(testCase.flagSet.setting("flags", to: newFlags)))
            }
        }
        // A context stays an object (what callers send).
        for smaller in Self.reductions(of: testCase.evaluations[0].context) where smaller.isObject {
            var candidate = testCase
            candidate.evaluations[0].context = smaller
            result.append(candidate)
        }
        return result
    }

    /// Every tree one step smaller than `tree`.
    static func reductions(of tree: GeneratedJSON) -> [GeneratedJSON] {
        switch tree {
        case .array(let elements):
            var result = elements
            for index in elements.indices {
                var fewer = elements
                fewer.remove(at: index)
                result.append(.array(fewer))
            }
            for index in elements.indices {
                for smaller in reductions(of: elements[index]) {
                    var changed = elements
                    changed[index] = smaller
                    result.append(.array(changed))
                }
            }
            return result
        case .object(let members):
            var result: [GeneratedJSON] = []
            for member in members {
                result.append(member.value)
                if case .array(let arguments) = member.value { result += arguments }
            }
            for index in members.indices {
                var fewer = members
                fewer.remove(at: index)
                result.append(.object(fewer))
            }
            for index in members.indices {
                for smaller in reductions(of: members[index].value) {
                    var changed = members
                    changed[index].value = smaller
                    result.append(.object(changed))
                }
            }
            return result
        default:
            return []
        }
    }
}

extension GeneratedJSON {
    var isObject: Bool {
        if case .object = self { return true }
        return false
    }
}

extension DifferentialCase {
    func withFlagSet(_ flagSet: GeneratedJSON) -> DifferentialCase {
        var copy = self
        copy.flagSet = flagSet
        return copy
    }

    /// The case as a reader can replay it by hand.
    var reproduction: String {
        let evaluation = evaluations[0]
        return """
              flag set: \(flagSetText)
              evaluate: \(GeneratedJSON.string(evaluation.flagKey).text()) as \(evaluation.type.rawValue) \
            with context \(evaluation.context.text())
            """
    }
}

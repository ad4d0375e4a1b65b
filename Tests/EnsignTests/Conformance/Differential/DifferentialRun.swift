import Ensign

/// Runs cases on both sides and judges every evaluation: a match, a mismatch a
/// ``MismatchClass`` explains, or an unexplained mismatch.
struct DifferentialRun {
    /// The judgement of one evaluation.
    enum Verdict {
        case match
        case explained(MismatchClass, MismatchEvidence)
        case unexplained(MismatchEvidence)

        /// The mismatch's evidence; `nil` for a match.
        var evidence: MismatchEvidence? {
            switch self {
            case .match: nil
            case .explained(_, let evidence), .unexplained(let evidence): evidence
            }
        }
    }

    let reference: ReferenceEvaluator

    /// Each evaluation of `testCase`, judged.
    func judge(_ testCase: DifferentialCase) throws -> [Verdict] {
        // Python works on the case while Ensign does (the machine has two cores).
        try reference.send(testCase)
        let ensign = EnsignDifferentialSide.evaluate(testCase)
        let theirs = try reference.receive(for: testCase)
        return testCase.evaluations.indices.map { index in
            let referenceResult =
                theirs.loadError == nil && index < theirs.results.count
                ? theirs.results[index] : Self.refusedLoad(testCase.evaluations[index].type)
            if OutcomeComparison.same(ensign[index].outcome, referenceResult.outcome) { return .match }
            let evidence = MismatchEvidence(
                testCase: testCase, index: index, ensign: ensign[index], reference: referenceResult,
                loadError: theirs.loadError, loadEvents: theirs.loadEvents)
            if let explanation = MismatchClass.classify(evidence) { return .explained(explanation, evidence) }
            return .unexplained(evidence)
        }
    }

    /// What the reference "answers" for a flag set it refused to load: nothing any provider
    /// could serve, so it never matches.
    static func refusedLoad(_ type: FlagKind) -> ReferenceEvaluator.Result {
        ReferenceEvaluator.Result(
            outcome: EvaluationOutcome(
                value: type.callerDefault, variant: nil, reason: "ERROR", errorCode: "LOAD_REFUSED"),
            events: [])
    }

    /// `evidence`'s evaluation alone, shrunk while its verdict still satisfies `keeps` (the same
    /// class, or the same unexplained shape, so shrinking cannot wander off to another
    /// mismatch); with the shrunk case's own evidence.
    func shrink(
        _ evidence: MismatchEvidence, maximumReplays: Int = 250, while keeps: @escaping (Verdict) -> Bool
    ) -> (reproduction: DifferentialCase, evidence: MismatchEvidence) {
        func verdict(_ testCase: DifferentialCase) -> Verdict? { try? judge(testCase).first }
        var shrinker = DifferentialShrinker(stillFails: { verdict($0).map(keeps) ?? false })
        shrinker.maximumReplays = maximumReplays
        let shrunk = shrinker.shrink(evidence.testCase.only(evidence.index))
        return (shrunk, verdict(shrunk)?.evidence ?? evidence)
    }
}

/// The figures of a run: evaluations, matches, explained mismatches per class, and the
/// unexplained ones grouped by how the two answers differ.
struct DifferentialTally {
    var cases = 0
    var evaluations = 0
    var matches = 0
    var explained: [String: Int] = [:]
    /// The first mismatch of each explained class, for its shrunk reproduction.
    var firstExplained: [String: MismatchEvidence] = [:]
    /// Explained mismatches where the Python core differs from flagd's Go daemon and Ensign gives Go's answer.
    var referenceDeviations = 0
    /// Explained mismatches where Ensign differs from Go on purpose.
    var deliberateDifferences = 0
    var unexplainedCount = 0
    /// The first unexplained mismatch of each shape (`Ensign ERROR PARSE_ERROR / reference TARGETING_MATCH`), and how many.
    var unexplainedShapes: [String: (first: MismatchEvidence, count: Int)] = [:]

    /// Evaluations where Ensign and the Python core give the same answer.
    var agreementWithReference: Double { evaluations == 0 ? 0 : Double(matches) / Double(evaluations) }

    /// Evaluations where Ensign gives flagd's answer as far as the harness can tell: the
    /// matches, and the mismatches where the Python core is known to differ from flagd's Go
    /// daemon (a class that is not deliberate).
    var agreementWithFlagd: Double {
        evaluations == 0 ? 0 : Double(matches + referenceDeviations) / Double(evaluations)
    }

    mutating func add(_ verdicts: [DifferentialRun.Verdict]) {
        cases += 1
        for verdict in verdicts {
            evaluations += 1
            switch verdict {
            case .match: matches += 1
            case .explained(let explanation, let evidence):
                explained[explanation.id, default: 0] += 1
                if firstExplained[explanation.id] == nil { firstExplained[explanation.id] = evidence }
                if explanation.isDeliberate { deliberateDifferences += 1 } else { referenceDeviations += 1 }
            case .unexplained(let evidence):
                unexplainedCount += 1
                let shape = Self.shape(evidence)
                let count = (unexplainedShapes[shape]?.count ?? 0) + 1
                unexplainedShapes[shape] = (unexplainedShapes[shape]?.first ?? evidence, count)
            }
        }
    }

    static func shape(_ evidence: MismatchEvidence) -> String {
        func brief(_ outcome: EvaluationOutcome) -> String {
            outcome.reason + (outcome.errorCode.map { " " + $0 } ?? "")
        }
        let ensign = brief(evidence.ensign.outcome)
        let reference = brief(evidence.reference.outcome)
        let outcomes =
            ensign == reference
            ? "same reason \(ensign), other value or variant" : "Ensign \(ensign) / reference \(reference)"
        guard let problem = evidence.ensign.loadErrors.first else { return outcomes }
        return outcomes + " (Ensign's loader: \(genericMessage(problem)))"
    }

    /// A loader message's first clause with its names and numbers blanked, so that one kind of
    /// problem is one shape.
    static func genericMessage(_ message: String) -> String {
        var output = ""
        var quote: Character?
        for character in message {
            if let open = quote {
                if character == open {
                    output.append("…")
                    output.append(character)
                    quote = nil
                }
            } else if character == "'" || character == "\"" {
                output.append(character)
                quote = character
            } else if !character.isNumber {
                output.append(character)
            } else if output.last != "N" {
                output.append("N")
            }
        }
        // The first clause names the kind of problem; the rest lists particulars.
        for separator in ["types:", ", ", "; ", " ("] {
            if let range = output.range(of: separator) {
                output = String(output[..<range.lowerBound]) + (separator == "types:" ? "types" : "")
            }
        }
        return output
    }

    /// The summary the test prints.
    var summary: String {
        func percent(_ share: Double) -> String { "\((share * 10_000).rounded() / 100)%" }
        var lines = [
            "differential: \(cases) flag sets, \(evaluations) evaluations: \(matches) agree with the Python core"
                + " (\(percent(agreementWithReference))), \(referenceDeviations) where the Python core differs from"
                + " flagd's Go daemon (agreement with flagd \(percent(agreementWithFlagd))), \(deliberateDifferences)"
                + " deliberate differences, \(unexplainedCount) unexplained"
        ]
        for (id, count) in explained.sorted(by: { ($1.value, $0.key) < ($0.value, $1.key) }) {
            lines.append("  explained \(count)\t\(id)")
        }
        for (shape, entry) in unexplainedShapes.sorted(by: { $0.value.count > $1.value.count }) {
            lines.append("  unexplained \(entry.count)\t\(shape)")
        }
        return lines.joined(separator: "\n")
    }
}

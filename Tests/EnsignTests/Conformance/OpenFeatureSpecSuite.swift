import EnsignJSON
import Foundation

@testable import Ensign

/// OpenFeature's own Gherkin suites in the shared conformance data (open-feature/spec's
/// `specification/assets/gherkin`), read in place, and the flag set they evaluate
/// (`test-flags.json`) converted to a flagd flag file.
enum OpenFeatureSpecSuite {
    static let directory = ConformanceData.directory.appendingPathComponent("openfeature-spec/gherkin")
    static let flagsFile = directory.appendingPathComponent("test-flags.json")

    /// The suites run, with the number of cases (scenarios and outline rows) each must give.
    static let expectedCaseCounts: KeyValuePairs<String, Int> = [
        "hooks.feature": 3,
        "contextMerging.feature": 29,
        "evaluation_v2.feature": 82,
        "metadata.feature": 5,
    ]

    static var isAvailable: Bool {
        expectedCaseCounts.allSatisfy {
            FileManager.default.fileExists(atPath: directory.appendingPathComponent($0.key).path)
        } && FileManager.default.fileExists(atPath: flagsFile.path)
    }

    static var skipReason: String {
        "OpenFeature's Gherkin suites not found at \(directory.path). They are open-feature/spec's"
            + " specification/assets/gherkin folder; point ENSIGN_CONFORMANCE_DIR at a directory containing"
            + " openfeature-spec/gherkin."
    }

    /// One case of one suite file.
    struct SpecCase: Sendable, CustomStringConvertible {
        var file: String
        var scenario: GherkinFeature.Case
        var description: String { "\(file): \(scenario.name)" }
    }

    /// Every case of every suite file, in file order.
    static let cases: [SpecCase] = {
        guard isAvailable else { return [] }
        return expectedCaseCounts.flatMap { entry -> [SpecCase] in
            let url = directory.appendingPathComponent(entry.key)
            guard let text = try? String(contentsOf: url, encoding: .utf8) else { return [] }
            return GherkinFeature(text: text).cases.map { SpecCase(file: entry.key, scenario: $0) }
        }
    }()

    /// The cases run: every case no entry of ``notApplicable`` selects.
    static var applicableCases: [SpecCase] { cases.filter { exclusion(for: $0) == nil } }

    // MARK: Cases that do not apply

    /// What an exclusion selects, in one suite file.
    enum Selector: Sendable, CustomStringConvertible {
        /// A scenario by name: every row of an outline, or one row by its full case name.
        case scenario(String)
        /// Every case carrying the tag (a feature's, a scenario's or an Examples table's).
        case tag(String)

        func selects(_ scenario: GherkinFeature.Case) -> Bool {
            switch self {
            case .scenario(let name): return scenario.name == name || scenario.name.hasPrefix(name + " #")
            case .tag(let tag): return scenario.tags.contains(tag)
            }
        }

        var description: String {
            switch self {
            case .scenario(let name): return "scenario '\(name)'"
            case .tag(let tag): return "tag \(tag)"
            }
        }
    }

    struct Exclusion: Sendable, CustomStringConvertible {
        var file: String
        var selector: Selector
        var reason: String
        var description: String { "\(file): \(selector)" }
    }

    /// The cases that are not run, each with why: what the specification assumes and Ensign
    /// does not have. A case where Ensign merely answers differently is not listed: it fails.
    static let notApplicable: [Exclusion] = [
        Exclusion(
            file: "evaluation_v2.feature", selector: .tag("@provider-status"),
            reason:
                "Ensign is its own provider and has no lifecycle states (NOT_READY, ERROR, FATAL, STALE) nor the"
                + " PROVIDER_NOT_READY / PROVIDER_FATAL error codes: a context is usable once it is built."),
        Exclusion(
            file: "evaluation_v2.feature", selector: .tag("@reason-codes-cached"),
            reason: "Ensign has no CACHED reason: every read indexes the current snapshot, there is no provider cache."),
        Exclusion(
            file: "evaluation_v2.feature", selector: .tag("@async"),
            reason: "Ensign has no asynchronous evaluation API: reads are synchronous and never block on writers."),
    ]

    /// The exclusion that selects `specCase`, if any.
    static func exclusion(for specCase: SpecCase) -> Exclusion? {
        notApplicable.first { $0.file == specCase.file && $0.selector.selects(specCase.scenario) }
    }

    // MARK: The flag set

    /// The two CEL expressions of `contextEvaluator` (the README lists them), each as the
    /// JsonLogic `targeting` that states the same rule.
    ///
    /// - `''` means "no variant": the scenarios expect the default variant with `DEFAULT`, which
    ///   is what flagd gives for a targeting result of `null`.
    /// - CEL's `==` compares without converting types: JsonLogic's `===`.
    /// - `!customer` negates a boolean: `customer === false` (JsonLogic's `!` would also take a
    ///   missing or falsy non-boolean `customer`, where CEL fails).
    /// - An attribute CEL cannot read (missing, or `null`) makes the condition false, as the
    ///   suite's "Empty evaluation context" and "Null context values" scenarios expect.
    static let celTranslations: [String: String] = [
        "email == 'ballmer@macrosoft.com' ? 'zero' : ''":
            #"{"if": [{"===": [{"var": "email"}, "ballmer@macrosoft.com"]}, "zero", null]}"#,
        "!customer && email == 'ballmer@macrosoft.com' && age > 10 ? 'internal' : ''":
            #"{"if": [{"and": [{"===": [{"var": "customer"}, false]}, "#
            + #"{"===": [{"var": "email"}, "ballmer@macrosoft.com"]}, {">": [{"var": "age"}, 10]}]}, "#
            + #""internal", null]}"#,
    ]

    struct ConversionError: Error, CustomStringConvertible {
        var description: String
    }

    /// `test-flags.json` as a flagd flag file: `disabled: true` becomes `state: DISABLED` (else
    /// `ENABLED`), `flagMetadata` becomes `metadata` (`null` none), `contextEvaluator` becomes
    /// the `targeting` of ``celTranslations``; `variants` and `defaultVariant` (absent, `null`
    /// or a name) are kept. A field or an expression it does not know is an error, not dropped.
    static func flagdFlags(fromTestFlags document: JSONValue) throws(ConversionError) -> JSONValue {
        guard case .object(let testFlags) = document else { throw ConversionError(description: "not an object") }
        var flags: [String: JSONValue] = [:]
        for (key, value) in testFlags {
            guard case .object(let fields) = value else {
                throw ConversionError(description: "'\(key)' is not an object")
            }
            var flag: [String: JSONValue] = ["state": "ENABLED"]
            for (field, fieldValue) in fields {
                switch (field, fieldValue) {
                case ("variants", _), ("defaultVariant", _):
                    flag[field] = fieldValue
                case ("disabled", .bool(let disabled)):
                    flag["state"] = disabled ? "DISABLED" : "ENABLED"
                case ("flagMetadata", .null):
                    continue
                case ("flagMetadata", .object):
                    flag["metadata"] = fieldValue
                case ("contextEvaluator", .string(let expression)):
                    guard let rule = celTranslations[expression] else {
                        throw ConversionError(description: "'\(key)': no JsonLogic translation for CEL '\(expression)'")
                    }
                    do {
                        flag["targeting"] = try JSONValue(jsonText: rule)
                    } catch {
                        throw ConversionError(description: "the translation of '\(expression)': \(error)")
                    }
                default:
                    throw ConversionError(description: "'\(key)': unknown field '\(field)': \(fieldValue.jsonText)")
                }
            }
            flags[key] = .object(flag)
        }
        return .object(["flags": .object(flags)])
    }

    /// The converted flag file's text, made once.
    static let flagdFileText: Result<String, ConversionError> = {
        guard let data = FileManager.default.contents(atPath: flagsFile.path),
            let document = try? JSONValue(jsonText: String(decoding: data, as: UTF8.self))
        else { return .failure(ConversionError(description: "cannot read \(flagsFile.path)")) }
        return Result { () throws(ConversionError) in try flagdFlags(fromTestFlags: document).jsonText }
    }()
}

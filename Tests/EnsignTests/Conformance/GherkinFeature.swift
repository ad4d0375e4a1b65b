import Ensign
import EnsignJSON
import Foundation

/// A small reader for the Gherkin the flagd testbed uses: Feature, Background, Scenario,
/// Scenario Outline with tagged Examples tables, and steps with data tables.
struct GherkinFeature {
    struct Step: Sendable {
        var text: String
        var table: [[String]]
    }

    /// One runnable case: a scenario, or one row of an outline's examples, with placeholders filled.
    struct Case: Sendable, CustomStringConvertible {
        var feature: String
        var name: String
        var tags: Set<String>
        var steps: [Step]
        var description: String { "\(feature): \(name)" }
    }

    var name = ""
    var cases: [Case] = []

    init(text: String) {
        var featureTags: Set<String> = []
        var pendingTags: Set<String> = []
        var background: [Step] = []
        var scenario: (name: String, tags: Set<String>, steps: [Step], isOutline: Bool)?
        var examples: (tags: Set<String>, rows: [[String]])?
        var inBackground = false

        func flushExamples() {
            guard let current = scenario, let table = examples, let header = table.rows.first else { return }
            for (index, row) in table.rows.dropFirst().enumerated() {
                var values: [String: String] = [:]
                for (column, title) in header.enumerated() where column < row.count { values[title] = row[column] }
                let steps = (background + current.steps).map { step in
                    Step(
                        text: Self.fill(step.text, values),
                        table: step.table.map { $0.map { Self.fill($0, values) } })
                }
                cases.append(
                    Case(
                        feature: name, name: "\(current.name) #\(index + 1) \(row.joined(separator: " | "))",
                        tags: featureTags.union(current.tags).union(table.tags), steps: steps))
            }
            examples = nil
        }
        func flushScenario() {
            flushExamples()
            if let current = scenario, !current.isOutline {
                cases.append(
                    Case(
                        feature: name, name: current.name, tags: featureTags.union(current.tags),
                        steps: background + current.steps))
            }
            scenario = nil
        }

        for rawLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let line = rawLine.trimmingPrefixAndSuffixSpaces()
            if line.isEmpty || line.hasPrefix("#") { continue }
            if line.hasPrefix("@") {
                pendingTags.formUnion(line.split(separator: " ").map(String.init))
            } else if let rest = line.removingPrefix("Feature:") {
                name = rest
                featureTags = pendingTags
                pendingTags = []
            } else if line.hasPrefix("Background:") {
                inBackground = true
            } else if let rest = line.removingPrefix("Scenario Outline:") ?? line.removingPrefix("Scenario:") {
                flushScenario()
                inBackground = false
                scenario = (rest, pendingTags, [], line.hasPrefix("Scenario Outline:"))
                pendingTags = []
            } else if line.hasPrefix("Examples") {
                flushExamples()
                examples = (pendingTags, [])
                pendingTags = []
            } else if line.hasPrefix("|") {
                let cells = Self.cells(of: line)
                if examples != nil {
                    examples?.rows.append(cells)
                } else if inBackground {
                    background[background.count - 1].table.append(cells)
                } else if let count = scenario?.steps.count, count > 0 {
                    scenario?.steps[count - 1].table.append(cells)
                }
            } else if let keyword = ["Given ", "When ", "Then ", "And ", "But "].first(where: line.hasPrefix) {
                let step = Step(text: String(line.dropFirst(keyword.count)), table: [])
                if inBackground { background.append(step) } else { scenario?.steps.append(step) }
            }
        }
        flushScenario()
    }

    /// The double-quoted values of a step, in order.
    static func quotedValues(_ text: String) -> [String] {
        text.split(separator: "\"", omittingEmptySubsequences: false).enumerated()
            .filter { $0.offset % 2 == 1 }.map { String($0.element) }
    }

    /// `text` as a value of a suite type (Boolean, Integer, Float, String, Object, in any case);
    /// `nil` when it is not one.
    static func value(_ text: String, ofType type: String) -> JSONValue? {
        switch type.lowercased() {
        case "boolean": return ["true": true, "false": false][text].map(JSONValue.bool)
        case "integer": return Int(text).map(JSONValue.int)
        case "float": return Double(text).map(JSONValue.double)
        case "string": return .string(text)
        case "object": return try? JSONValue(jsonText: text)
        default: return nil
        }
    }

    private static func fill(_ text: String, _ values: [String: String]) -> String {
        values.reduce(text) { $0.replacingAll("<\($1.key)>", with: $1.value) }
    }

    /// The cells of a table row, with `\|`, `\"` and `\\` unescaped.
    private static func cells(of line: String) -> [String] {
        var cells: [String] = []
        var current = ""
        var escaped = false
        for character in line.dropFirst() {
            if escaped {
                current.append(character == "n" ? "\n" : character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == "|" {
                cells.append(current.trimmingPrefixAndSuffixSpaces())
                current = ""
            } else {
                current.append(character)
            }
        }
        return cells
    }
}

extension StringProtocol {
    func trimmingPrefixAndSuffixSpaces() -> String {
        trimmingCharacters(in: .whitespaces)
    }

    func removingPrefix(_ prefix: String) -> String? {
        guard hasPrefix(prefix) else { return nil }
        return String(dropFirst(prefix.count)).trimmingPrefixAndSuffixSpaces()
    }

    func replacingAll(_ target: String, with replacement: String) -> String {
        replacingOccurrences(of: target, with: replacement)
    }
}

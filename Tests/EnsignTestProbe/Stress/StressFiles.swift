import Foundation

/// The files of a stress run: definitions, the environment overlay and a deployment file,
/// plus the overrides and preferences files the context writes.
///
/// Rewrites are atomic (write to a temporary file, then rename), so a reload reads a whole
/// old file or a whole new one and never a half-written one.
struct StressFiles: Sendable {
    static let environment = "stress"

    let scenario: StressScenario
    let flagsDirectory: String
    let deploymentFile: String
    let overridesFile: String
    let preferencesFile: String

    init(scenario: StressScenario, directory: String) throws {
        self.scenario = scenario
        flagsDirectory = directory + "/flags"
        deploymentFile = directory + "/deploy.yaml"
        overridesFile = directory + "/overrides.yaml"
        preferencesFile = directory + "/preferences.yaml"
        try FileManager.default.createDirectory(
            atPath: flagsDirectory + "/environments", withIntermediateDirectories: true)
        try rewrite(round: 0, reloadValue: 0)
    }

    /// Rewrites every file for `round`: the definitions and the environment overlay change
    /// only cosmetically (comments, spacing, key order, flow or block style), and the
    /// deployment file gives every reload-owned key `reloadValue`.
    func rewrite(round: Int, reloadValue: Int) throws {
        try write(definitions(round: round), to: flagsDirectory + "/stress.yaml")
        try write(environmentOverlay(round: round), to: flagsDirectory + "/environments/\(Self.environment).yaml")
        try write(deployment(round: round, value: reloadValue), to: deploymentFile)
    }

    private func write(_ text: String, to path: String) throws {
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    }

    func definitions(round: Int) -> String {
        let style = round % 3
        var keys = scenario.flagKeys + [StressScenario.environmentKey]
        if style == 1 { keys.reverse() }
        var lines = ["# stress definitions, cosmetic rewrite \(round)", "version: 1", "flags:"]
        for key in keys {
            if style == 2 {
                lines += ["  \(key):", "    type: int", "    default: 0", ""]
            } else {
                lines.append("  \(key): { type: int, default: 0 }\(style == 1 ? "  # owned" : "")")
            }
        }
        lines += [
            "  \(StressScenario.targetedKey):",
            "    variants: { \"on\": 1, \"off\": 0 }",
            "    defaultVariant: \"off\"",
            "    targeting:",
            "      if: [{ in: [{ var: country }, [FR, BE]] }, \"on\", \"off\"]",
        ]
        if !scenario.preferenceKeys.isEmpty {
            lines.append("preferences:")
            lines += scenario.preferenceKeys.map { "  \($0): { type: int, default: 0 }" }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private func environmentOverlay(round: Int) -> String {
        "# environment overlay, cosmetic rewrite \(round)\nflags:\n\(round % 2 == 0 ? "  " : "    ")"
            + "\(StressScenario.environmentKey): 7\n"
    }

    private func deployment(round: Int, value: Int) -> String {
        let keys = scenario.reloadPrefixes.flatMap(scenario.keys(under:))
        var lines = ["# deployment file, rewrite \(round)", "flags:"]
        lines += keys.map { "  \($0): \(value)" }
        // Never an empty overlay: the environment key is set here too, to the same value.
        lines.append("  \(StressScenario.environmentKey): 7")
        return lines.joined(separator: "\n") + "\n"
    }
}

import Foundation
import PackagePlugin

/// Generates `EnsignKeys.swift` for a target from its definitions with `ensign generate`.
///
/// The definitions are the target's `flags` directory, or the directory named in an
/// `ensign-keys.json` file at the target's root:
///
/// ```json
/// { "flags": "Definitions", "access": "public" }
/// ```
///
/// `access` is `internal` (the default) or `public` (for a library whose clients read its
/// keys). Every YAML and JSON file under the directory, and the configuration file, are the
/// command's inputs, so SwiftPM runs it again only when one of them changes.
///
/// A flag past its `expires:` day is a warning, not an error: `ensign generate` prints
/// `flags/app.yaml:12:14: warning: 'x' expired on 2026-01-31; …` on standard error, which Xcode
/// and SwiftPM show against the definitions file, and the build goes on. (The command runs
/// when an input changes, so the warning shows on the first build after an edit or a clean.)
@main
struct EnsignKeysPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        let targetDirectory = target.directoryURL
        return try Self.commands(
            targetName: target.name, targetDirectory: targetDirectory, workDirectory: context.pluginWorkDirectoryURL,
            tool: context.tool(named: "EnsignCLI").url)
    }

    /// The build command for one target.
    static func commands(targetName: String, targetDirectory: URL, workDirectory: URL, tool: URL) throws -> [Command] {
        let configurationFile = targetDirectory.appending(path: "ensign-keys.json")
        let configuration = try Configuration(contentsOf: configurationFile, target: targetName)
        let flagsDirectory = targetDirectory.appending(path: configuration.flags)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: flagsDirectory.path, isDirectory: &isDirectory),
            isDirectory.boolValue
        else {
            throw PluginError(
                "\(targetName) has no definitions directory at \(flagsDirectory.path); create it, or name another"
                    + " directory with {\"flags\": \"relative/path\"} in \(configurationFile.path)")
        }
        let output = workDirectory.appending(path: "EnsignKeys.swift")
        var inputs = definitionFiles(under: flagsDirectory)
        if FileManager.default.fileExists(atPath: configurationFile.path) { inputs.append(configurationFile) }
        return [
            .buildCommand(
                displayName: "Generating Ensign keys for \(targetName) from \(configuration.flags)",
                executable: tool,
                arguments: [
                    "generate", "--flags", flagsDirectory.path, "--access", configuration.access, "--output",
                    output.path,
                ],
                inputFiles: inputs,
                outputFiles: [output])
        ]
    }

    /// Every `*.yaml`, `*.yml` and `*.json` file under `directory`, sorted.
    static func definitionFiles(under directory: URL) -> [URL] {
        let extensions: Set = ["yaml", "yml", "json"]
        guard
            let enumerator = FileManager.default.enumerator(
                at: directory, includingPropertiesForKeys: nil, options: [.skipsHiddenFiles])
        else { return [] }
        var files: [URL] = []
        for case let file as URL in enumerator where extensions.contains(file.pathExtension.lowercased()) {
            files.append(file)
        }
        return files.sorted { $0.path < $1.path }
    }
}

/// The contents of `ensign-keys.json`; every member is optional.
struct Configuration: Decodable {
    /// The definitions directory, relative to the target's directory.
    var flags: String
    /// `internal` or `public`.
    var access: String

    private enum CodingKeys: String, CodingKey {
        case flags, access
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        flags = try container.decodeIfPresent(String.self, forKey: .flags) ?? "flags"
        access = try container.decodeIfPresent(String.self, forKey: .access) ?? "internal"
    }

    init(contentsOf file: URL, target: String) throws {
        guard FileManager.default.fileExists(atPath: file.path) else {
            self.flags = "flags"
            self.access = "internal"
            return
        }
        do {
            self = try JSONDecoder().decode(Configuration.self, from: Data(contentsOf: file))
        } catch {
            throw PluginError("\(file.path): cannot read the EnsignKeysPlugin configuration of \(target): \(error)")
        }
        guard access == "internal" || access == "public" else {
            throw PluginError("\(file.path): 'access' must be \"internal\" or \"public\"; found \"\(access)\"")
        }
    }
}

/// A problem with the plugin's configuration, shown by SwiftPM as the build's error.
struct PluginError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}

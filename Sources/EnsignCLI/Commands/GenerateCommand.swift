import Ensign
import EnsignCodeGeneration
import EnsignTooling
import Foundation

/// `ensign generate`: writes Swift typed keys for the flags and preferences of a definitions directory.
enum GenerateCommand {
    static let specification = CommandSpecification(
        name: "generate", summary: "Write Swift typed keys for every flag and preference defined in a directory.",
        discussion: """
            Declares a key for every flag (on FlagKey) and preference (on UserPreferenceKey)
            defined in DIR, with the definition's default as the code default and its
            description, owner and expiry as the doc comment. Overlays never create keys.

            'wallet.showBalance' becomes .walletShowBalance; a string with 'enum:' gets a
            String-backed enum (WalletCurrencyStyle); an object is a JSONValue, or the type
            named with 'swiftType:' (a CodableFlagValue). Names that collide, and keys with no
            default, are errors.
            """,
        options: [
            .value("flags", "DIR", "the definitions directory (required)", required: true),
            .value("env", "E", "check only environment E's overlay; keys come from definitions"),
            .value(
                "output", "FILE",
                "write FILE instead of standard output; FILE is left untouched when it already has this content, so"
                    + " builds do no extra work"),
            .value("access", "public|internal", "internal (the default) or public, for a library's clients"),
        ],
        epilogue: """
            Problems print on standard error as path:line:column.

            exit status: 0 when the keys were generated, 1 when the definitions have errors.

            examples:
              ensign generate --flags flags/ --output Sources/App/EnsignKeys.swift
              ensign generate --flags Sources/Wallet/flags --access public
            """,
        run: run)

    static func run(_ arguments: ParsedArguments, console: inout Console) throws -> Int32 {
        guard let directory = arguments.option("flags") else {
            throw UsageError("give the definitions with --flags DIR")
        }
        let accessText = arguments.option("access") ?? "internal"
        guard let accessLevel = KeyGenerationOptions.AccessLevel(rawValue: accessText) else {
            throw UsageError("--access must be 'public' or 'internal'; found '\(accessText)'")
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            console.printError("\(directory): error: no such directory; --flags names a definitions directory")
            return ExitStatus.failure
        }
        let report = try TodayOption.validator().validate(paths: [directory], environment: arguments.option("env"))
        let options = KeyGenerationOptions(accessLevel: accessLevel, sourceDirectories: [directory])
        let result = KeyGenerator(options: options).generate(from: report.definitions)
        for diagnostic in report.diagnostics + result.diagnostics {
            console.printError(DiagnosticPrinter.format(diagnostic, console: console))
        }
        guard !report.diagnostics.containsErrors, let source = result.source else { return ExitStatus.failure }
        guard let output = arguments.option("output") else {
            console.print(source, terminator: "")
            return ExitStatus.success
        }
        return write(source, to: output, keyCount: result.keyCount, console: &console)
    }

    /// Writes `source` to `path` unless the file already holds exactly that.
    static func write(_ source: String, to path: String, keyCount: Int, console: inout Console) -> Int32 {
        let bytes = Data(source.utf8)
        let keys = "\(keyCount) key\(keyCount == 1 ? "" : "s")"
        if FileManager.default.contents(atPath: path) == bytes {
            console.print("\(path) is up to date (\(keys))")
            return ExitStatus.success
        }
        let url = URL(fileURLWithPath: path)
        do {
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try bytes.write(to: url, options: .atomic)
        } catch {
            console.printError("\(path): error: cannot write the generated keys: \(error.localizedDescription)")
            return ExitStatus.failure
        }
        console.print("wrote \(path) (\(keys))")
        return ExitStatus.success
    }
}

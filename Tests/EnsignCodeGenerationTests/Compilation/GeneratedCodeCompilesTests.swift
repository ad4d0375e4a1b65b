import EnsignCodeGeneration
import EnsignTestTraits
import Foundation
import Testing

/// The generated file compiled by the Swift compiler against the `Ensign` module this test
/// was built with, in Swift 6 mode with warnings as errors, next to code that reads every key.
///
/// The compiler is run on the module files of this build, not through a scratch SwiftPM
/// package, so the check takes seconds rather than a rebuild of the library. The plugin
/// fixture (`scripts/test`) builds, links and runs generated keys through SwiftPM.
@Suite("Generated keys compile")
struct GeneratedCodeCompilesTests {
    static let usage = """
        import Ensign

        public struct Banner: CodableFlagValue {
            public var title: String
            public var priority: Int
        }

        func readEveryKey(_ context: AppContext) -> [String] {
            let banner: Banner = context[.walletBanner]
            let style: WalletCurrencyStyle = context[.walletCurrencyStyle]
            let mode: Mode = context[.mode]
            let language: LocaleLanguage = context[.localeLanguage]
            let values: [any Sendable] = [
                context[.walletShowBalance], context[.walletNewFlow], context[.default], context[._2faRequired],
                context[.walletPageSize], context[.in], context[.walletDailyLimit], context[.walletGreeting],
                context[.self], context[.`init`], context[.walletLimits], banner.title, banner.priority, style, mode,
                context[.appearanceDarkMode], language,
            ]
            let cases = WalletCurrencyStyle.allCases.map(\\.rawValue) + Mode.allCases.map(\\.rawValue)
            return values.map { "\\($0)" } + cases + [FlagKey<Bool>.walletShowBalance.name]
        }
        """

    @Test("The file for every kind of key compiles in Swift 6 mode without warnings", .blocksItsThread)
    func compiles() throws {
        let source = try #require(GenerationFixtures.generate(files: GenerationFixtures.everyKind).source)
        try SwiftCompiler.withScratchDirectory("generated") { directory in
            let generated = directory.appendingPathComponent("EnsignKeys.swift")
            let usage = directory.appendingPathComponent("Usage.swift")
            try source.write(to: generated, atomically: true, encoding: .utf8)
            try Self.usage.write(to: usage, atomically: true, encoding: .utf8)

            let object = directory.appendingPathComponent("Scratch.o")
            let result = try SwiftCompiler.compile([generated.path, usage.path], output: object.path)
            #expect(result.status == 0, "\(result.output)")
            #expect(!result.output.contains("warning:"), "\(result.output)")
            #expect(FileManager.default.fileExists(atPath: object.path))
        }
    }
}

/// Runs `swiftc` from the toolchain on the `PATH` against this build's modules.
enum SwiftCompiler {
    struct Result {
        var status: Int32
        var output: String
    }

    /// Runs `body` in a fresh temporary directory named after `label`, removed afterwards.
    static func withScratchDirectory<T>(_ label: String, _ body: (URL) throws -> T) throws -> T {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("ensign-\(label)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        return try body(directory)
    }

    /// The package root.
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The directory with this build's `.swiftmodule` files: `Modules` next to the test bundle.
    static var modulesDirectory: URL {
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
            .deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = directory.appendingPathComponent("Modules")
            if FileManager.default.fileExists(atPath: candidate.appendingPathComponent("Ensign.swiftmodule").path) {
                return candidate
            }
            directory = directory.deletingLastPathComponent()
        }
        return packageRoot.appendingPathComponent(".build/debug/Modules")
    }

    /// Compiles `files` as one module into an object file, warnings as errors.
    static func compile(_ files: [String], output: String) throws -> Result {
        try run(["-wmo", "-c", "-o", output] + files)
    }

    /// Type-checks `files` as one module, warnings as errors: for code that must not compile,
    /// where an object file would take longer and tell nothing more.
    static func typecheck(_ files: [String]) throws -> Result {
        try run(["-typecheck"] + files)
    }

    /// Type-checks a program whose top-level code is `main` (a documentation snippet), next
    /// to `others`. Warnings are allowed: a snippet may leave a value unused.
    static func typecheckProgram(main: String, others: [String]) throws -> Result {
        try run(["-typecheck", main] + others, mode: [])
    }

    private static func run(
        _ arguments: [String], mode: [String] = ["-parse-as-library", "-warnings-as-errors"]
    ) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments =
            ["swiftc", "-swift-version", "6"] + mode
            + [
                "-module-name", "Scratch", "-I", modulesDirectory.path, "-I",
                packageRoot.appendingPathComponent("Sources/CYAML").path, "-I",
                // EnsignServe's C module, for the snippets of `ensign serve`'s article.
                packageRoot.appendingPathComponent("Sources/CMicroHTTPD").path, "-I",
                // EnsignHTTP's, for the snippets of the fleet and the remote source.
                packageRoot.appendingPathComponent("Sources/CCurl").path,
            ] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, output: String(decoding: data, as: UTF8.self))
    }
}

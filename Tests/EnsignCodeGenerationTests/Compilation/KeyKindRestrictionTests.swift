import EnsignTestTraits
import Foundation
import Testing

/// What app code may do with each kind of key, checked by the compiler: since `FlagKey` and
/// `UserPreferenceKey` became one generic type, the writes open to one kind only are refused
/// through the key's `Kind` parameter, which no test can observe at run time.
///
/// Each refused call is checked next to the accepted program it was taken from, which differs
/// from it only in that call, so the refusal is the key's kind and not a typo in the snippet.
/// (The compiler harness lives in this target, which already runs `swiftc` on this build.)
@Suite("Key kinds keep their writes apart")
struct KeyKindRestrictionTests {
    /// Every API open to both kinds, with both, and each one-kind write with its own kind.
    static let accepted = """
        import Ensign

        extension FlagKey<Int> {
            static let pageSize = FlagKey("beneficiaries.pageSize", default: 20)
        }
        extension UserPreferenceKey<Bool> {
            static let darkMode = UserPreferenceKey("appearance.darkMode", default: false)
        }

        struct Screen {
            @ContextValue(.pageSize) var pageSize
            @ContextValue(.darkMode) var darkMode
        }

        func use(_ context: AppContext) throws -> [String] {
            let values = [
                "\\(context[.pageSize])", "\\(context[.darkMode])", "\\(context.snapshot[.pageSize])",
                "\\(context.snapshot[.darkMode])", "\\(context.details(for: .pageSize).reason)",
                "\\(context.details(for: .darkMode).reason)", "\\(Screen().pageSize)", "\\(Screen().darkMode)",
            ]
            let tokens = [context.observe(.pageSize) { _ in }, context.observe(.darkMode) { _ in }]
            tokens.forEach { $0.cancel() }
            _ = (context.values(for: .pageSize), context.values(for: .darkMode))
            try context.setOverride(.pageSize, to: 50)
            try context.setOverride(.darkMode, to: true)
            context.removeOverride(.pageSize)
            context.removeOverride(.darkMode)
            try context.setPreference(.darkMode, to: true)
            try context.batch { batch in
                try batch.setOverride(.pageSize, to: 30)
                batch.removeOverride(.pageSize)
                try batch.setPreference(.darkMode, to: false)
            }
            return values
        }
        """

    /// A call of the accepted program, and what it becomes when it names the other kind.
    static let refused: [(original: String, refused: String)] = [
        ("try context.setPreference(.darkMode, to: true)", "try context.setPreference(.pageSize, to: 1)"),
        ("try batch.setOverride(.pageSize, to: 30)", "try batch.setOverride(.darkMode, to: true)"),
        ("batch.removeOverride(.pageSize)", "batch.removeOverride(.darkMode)"),
    ]

    @Test("Every API open to both kinds takes both, and each one-kind write takes its kind")
    func accepts() throws {
        let result = try Self.typecheck(Self.accepted)
        #expect(result.status == 0, "\(result.output)")
        #expect(!result.output.contains("warning:"), "\(result.output)")
    }

    @Test(
        "A flag is not the user's preference, and a batch overrides only flags, as before", .blocksItsThread,
        arguments: refused.map(\.refused))
    func refuses(call: String) throws {
        let original = try #require(Self.refused.first { $0.refused == call }?.original)
        #expect(Self.accepted.contains(original))
        let result = try Self.typecheck(Self.accepted.replacingOccurrences(of: original, with: call))
        #expect(result.status != 0, "it compiled: \(call)")
        #expect(result.output.contains("error:"), "\(result.output)")
    }

    @Test("The declaration form from before one key type is refused, as the migration note says")
    func oldExtensionFormIsRefused() throws {
        let old = """
            import Ensign

            extension FlagKey where Value == Bool {
                static let showPendingList = FlagKey("beneficiaries.showPendingList", default: false)
            }
            """
        let result = try Self.typecheck(old)
        #expect(result.status != 0)
        #expect(result.output.contains("static stored properties not supported in generic types"), "\(result.output)")
        let new = old.replacingOccurrences(of: "extension FlagKey where Value == Bool", with: "extension FlagKey<Bool>")
        #expect(try Self.typecheck(new).status == 0)
    }

    /// Type-checks `source` as one file against this build's `Ensign` module.
    static func typecheck(_ source: String) throws -> SwiftCompiler.Result {
        try SwiftCompiler.withScratchDirectory("key-kinds") { directory in
            let file = directory.appendingPathComponent("Usage.swift")
            try source.write(to: file, atomically: true, encoding: .utf8)
            return try SwiftCompiler.typecheck([file.path])
        }
    }
}

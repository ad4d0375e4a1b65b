import EnsignTestSupport
import Testing

@testable import Ensign

/// Flag sets as flagd groups flags (`flagSetId` in a flag's or its file's metadata, the flag's
/// own winning), read and observed through a context (issue 37).
@Suite("Flag sets: a context lists and observes one set")
struct FlagSetTests {
    static let definitions =
        FlagSetFixture.definitions + """
              limits.daily: { default: 100, metadata: { flagSetId: payments } }
            preferences:
              theme: { default: light }
            """

    @Test("flagKeys(inSet:) lists the set's flags in the definitions' order; preferences never")
    func listsTheSet() throws {
        let context = try AppContext(definitions: Self.definitions)
        #expect(context.flagKeys(inSet: "web") == ["banner", "layout"])
        #expect(context.flagKeys(inSet: "payments") == ["checkout", "limits.daily"])
        #expect(context.flagKeys(inSet: "nobody").isEmpty)
        #expect(context.definitions["checkout"]?.flagSetID == "payments")
        #expect(context.definitions["theme"]?.flagSetID == "web")
        #expect(context.scope("limits.").flagKeys(inSet: "payments") == ["daily"])
    }

    @Test("observe(flagSet:) hears of its set's changes only, and only of those keys")
    func observesTheSet() throws {
        let context = try AppContext(definitions: Self.definitions)
        let payments = Recorder<ChangeBatch>()
        let token = context.observe(flagSet: "payments", label: "payments") { payments.record($0) }
        try context.setOverride(keyNamed: "banner", to: false)
        #expect(payments.count == 0)
        #expect(context.changeLog.last?.observerRuns.isEmpty == true, "no run logged for another set's change")
        try context.batch(label: "both") { batch in
            try batch.setOverride(keyNamed: "layout", to: "list")
            try batch.setOverride(keyNamed: "limits.daily", to: 50)
        }
        #expect(payments.values.map(\.keys) == [["limits.daily"]])
        #expect(context.changeLog.last?.observerRuns.map(\.keys) == [["limits.daily"]], "the log names the set's keys")
        token.cancel()
        try context.setOverride(keyNamed: "checkout", to: false)
        #expect(payments.count == 1)
    }

    @Test("A reload that moves a flag into the set reports it from then on")
    func membershipFollowsReloads() throws {
        let directory = try TemporaryDirectory()
        try directory.write("app.yaml", "flags:\n  a: { default: 1 }\n")
        let context = try unwatchedContext(directory.path, environment: "test")
        let recorded = Recorder<ChangeBatch>()
        let token = context.observe(flagSet: "team") { recorded.record($0) }
        try directory.write("app.yaml", "flags:\n  a: { default: 2, metadata: { flagSetId: team } }\n")
        #expect(context.reload().isEmpty)
        #expect(context.flagKeys(inSet: "team") == ["a"])
        #expect(recorded.values.map(\.keys) == [["a"]])
        _ = token
    }
}

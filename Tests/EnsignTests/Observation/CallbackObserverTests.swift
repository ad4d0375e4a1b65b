import EnsignSupport
import EnsignTestSupport
import Synchronization
import Testing

@testable import Ensign

@Suite("Callback observers")
struct CallbackObserverTests {
    @Test("Changing one key wakes only that key's observers")
    func perKeyGranularity() throws {
        let context = try ContextFixtures.context()
        let pageSizes = Recorder<Int>()
        let pending = Recorder<Bool>()
        let tokens = [
            context.observe(.pageSize) { pageSizes.record($0) },
            context.observe(.showPendingList) { pending.record($0) },
        ]
        try context.setOverride(.pageSize, to: 30)
        #expect(pageSizes.values == [30])
        #expect(pending.values.isEmpty)
        _ = tokens
    }

    @Test("A write that does not change the effective value wakes nobody")
    func unchangedWrite() throws {
        let context = try ContextFixtures.context()
        let calls = Recorder<Int>()
        let batches = Recorder<ChangeBatch>()
        let tokens = [context.observe(.pageSize) { calls.record($0) }, context.observeAll { batches.record($0) }]
        try context.setOverride(.pageSize, to: 20)  // the definition's default already
        #expect(calls.count == 0)
        #expect(batches.count == 0)
        try context.setOverride(.pageSize, to: 25)
        try context.setOverride(.pageSize, to: 25)
        #expect(calls.values == [25])
        _ = tokens
    }

    @Test("A batch is one transaction and one round")
    func batchIsOneRound() throws {
        let context = try ContextFixtures.context()
        let batches = Recorder<ChangeBatch>()
        let token = context.observeAll(label: "all") { batches.record($0) }
        try context.batch(label: "tune list") { batch in
            try batch.setOverride(.pageSize, to: 50)
            try batch.setOverride(.showPendingList, to: true)
            try batch.setPreference(.darkMode, to: true)
        }
        #expect(batches.count == 1)
        #expect(
            Set(batches.values.first?.keys ?? []) == [
                "beneficiaries.pageSize", "beneficiaries.showPendingList", "appearance.darkMode",
            ])
        #expect(batches.values.first?.cause == .batch("tune list"))
        _ = token
    }

    @Test("A batch that throws applies nothing")
    func failedBatch() throws {
        let context = try ContextFixtures.context()
        #expect(throws: ContextWriteError.self) {
            try context.batch { batch in
                try batch.setOverride(.pageSize, to: 50)
                try batch.setOverride(.pageSize, to: 5000)
            }
        }
        #expect(context[.pageSize] == 20)
    }

    @Test("Observers of several keys get one batch per transaction with only their keys")
    func severalKeys() throws {
        let context = try ContextFixtures.context()
        let batches = Recorder<[String]>()
        let token = context.observe(keysNamed: ["beneficiaries.pageSize", "transfers.newFlow"]) {
            batches.record($0.keys)
        }
        try context.batch {
            try $0.setOverride(.pageSize, to: 50)
            try $0.setOverride(.showPendingList, to: true)
        }
        try context.setOverride(.showPendingList, to: false)
        #expect(batches.values == [["beneficiaries.pageSize"]])
        _ = token
    }

    @Test("An observer sees the new value when it reads the context")
    func readInsideObserver() throws {
        let context = try ContextFixtures.context()
        let seen = Recorder<Int>()
        let token = context.observe(.pageSize) { _ in seen.record(context[.pageSize]) }
        try context.setOverride(.pageSize, to: 42)
        #expect(seen.values == [42])
        _ = token
    }

    @Test("An observer's own write becomes the next transaction, delivered after the current round")
    func reentrantWrite() throws {
        let context = try ContextFixtures.context()
        let events = Recorder<String>()
        let tokens = [
            context.observe(.pageSize, label: "mirror") { size in
                events.record("pageSize=\(size)")
                try? context.setOverride(.showPendingList, to: size > 30)
                events.record("mirror done")
            },
            context.observe(.showPendingList) { events.record("pending=\($0)") },
        ]
        try context.setOverride(.pageSize, to: 40)
        #expect(events.values == ["pageSize=40", "mirror done", "pending=true"])
        #expect(context[.showPendingList] == true)
        _ = tokens
    }

    @Test("An observer that keeps writing does not recurse")
    func noUnboundedRecursion() throws {
        let context = try ContextFixtures.context()
        let depth = Recorder<Int>()
        let token = context.observe(.pageSize) { size in
            depth.record(size)
            if size < 90 { try? context.setOverride(.pageSize, to: size + 1) }
        }
        try context.setOverride(.pageSize, to: 5)
        #expect(depth.count == 86)
        #expect(context[.pageSize] == 90)
        _ = token
    }

    @Test("Cancelling a token, or releasing it, stops the observer")
    func cancellation() throws {
        let context = try ContextFixtures.context()
        let calls = Recorder<Int>()
        let token = context.observe(.pageSize) { calls.record($0) }
        try context.setOverride(.pageSize, to: 30)
        token.cancel()
        #expect(token.isCancelled)
        try context.setOverride(.pageSize, to: 31)
        do {
            _ = context.observe(.pageSize) { calls.record($0) }  // released at once
        }
        try context.setOverride(.pageSize, to: 32)
        #expect(calls.values == [30])
    }

    @Test("An observer cancelled during a round is not called again in that round")
    func cancelDuringRound() throws {
        let context = try ContextFixtures.context()
        let calls = Recorder<String>()
        let second = LockedState<ObservationToken?>(nil)
        let first = context.observe(.pageSize) { _ in
            calls.record("first")
            second.withLock { $0?.cancel() }
        }
        second.withLock { $0 = context.observe(.pageSize) { _ in calls.record("second") } }
        try context.setOverride(.pageSize, to: 30)
        #expect(calls.values == ["first"])
        _ = first
    }
}

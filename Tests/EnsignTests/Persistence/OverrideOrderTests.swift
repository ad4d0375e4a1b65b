import EnsignTestTraits
import Foundation
import Testing

@testable import Ensign

/// The latest write to a key wins, in every order of persisted sets, plain sets, resets,
/// persisted writes of another key and reloads; the overrides file keeps the last persisted
/// value for the next start, and a reset removes it from the file too.
@Suite("Persisted and plain overrides in every order")
struct OverrideOrderTests {
    enum Step: CaseIterable, CustomStringConvertible {
        case persisted, plain, reset, otherPersisted, reload

        var description: String {
            switch self {
            case .persisted: "set k --persist"
            case .plain: "set k"
            case .reset: "reset k"
            case .otherPersisted: "set j --persist"
            case .reload: "reload"
            }
        }
    }

    /// What the run and the file hold for `k`, as the rule says.
    struct Expected {
        var inMemory: Int?
        var onDisk: Int?
    }

    static let key = "list.pageSize"

    @Test(
        "Every sequence of four steps leaves the latest write in force and the last persisted one on disk",
        .blocksItsThread)
    func everyOrder() throws {
        let fixture = try PersistenceFixture()
        var failures: [String] = []
        for sequence in Self.sequences(length: 4) {
            try? FileManager.default.removeItem(atPath: fixture.overridesFile)
            var expected = Expected()
            var value = 10
            do {
                let context = try fixture.context()
                for step in sequence {
                    value += 1
                    switch step {
                    case .persisted:
                        try context.setOverride(keyNamed: Self.key, to: .int(value), persist: true)
                        expected = Expected(inMemory: value, onDisk: value)
                    case .plain:
                        try context.setOverride(keyNamed: Self.key, to: .int(value))
                        expected.inMemory = value
                    case .reset:
                        context.removeOverride(keyNamed: Self.key)
                        expected = Expected()
                    case .otherPersisted:
                        try context.setOverride(keyNamed: "list.showPending", to: .bool(value % 2 == 0), persist: true)
                    case .reload:
                        context.reload()
                    }
                }
                let running = context.value(forKeyNamed: Self.key)
                if running != .int(expected.inMemory ?? 20) {
                    failures.append("\(sequence): the run reads \(running?.jsonText ?? "nil"), expected \(expected)")
                }
                try context.flush()
            }
            let restarted = try fixture.context()
            if restarted.value(forKeyNamed: Self.key) != .int(expected.onDisk ?? 20) {
                failures.append(
                    "\(sequence): after a restart reads \(restarted.value(forKeyNamed: Self.key)?.jsonText ?? "nil"),"
                        + " expected \(expected)")
            }
            let isOverridden = restarted.overrides[Self.key] != nil
            if isOverridden != (expected.onDisk != nil) {
                failures.append("\(sequence): after a restart the override is \(isOverridden ? "" : "not ")in force")
            }
        }
        #expect(
            failures.isEmpty,
            "\(failures.count) sequences broke the rule:\n\(failures.prefix(10).joined(separator: "\n"))")
    }

    @Test("An edit of the overrides file by someone else wins over the earlier writes to its keys only")
    func externalEditAppliesChangedKeysOnly() throws {
        let fixture = try PersistenceFixture()
        let context = try fixture.context()
        try context.setOverride(keyNamed: Self.key, to: 55, persist: true)
        try context.setOverride(keyNamed: Self.key, to: 77)
        try context.setOverride(keyNamed: "list.showPending", to: true, persist: true)
        try context.flush()
        // Another process edits the file: it changes list.showPending and leaves list.pageSize as it was.
        let text = try fixture.read(fixture.overridesFile).replacingOccurrences(
            of: "list.showPending: true", with: "list.showPending: false")
        try fixture.write(fixture.overridesFile, text)
        context.reload()
        #expect(context.value(forKeyNamed: "list.showPending") == false)
        #expect(context.value(forKeyNamed: Self.key) == 77)
        #expect(context.details(forKeyNamed: "list.showPending").source.actor == ContextLoader.overridesActor)
    }

    /// Every sequence of `length` steps.
    static func sequences(length: Int) -> [[Step]] {
        guard length > 0 else { return [[]] }
        return sequences(length: length - 1).flatMap { prefix in Step.allCases.map { prefix + [$0] } }
    }
}

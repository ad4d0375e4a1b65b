import EnsignSupport
import EnsignTestSupport
import Foundation
import Testing

@testable import Ensign

/// A reload reads its files outside the writers' lock. A write that lands while it reads must
/// survive its commit: a reload replaces only the layers it read.
@Suite("Writes that land while a reload reads its files")
struct ReloadWriteRaceTests {
    /// A context whose source runs `duringRead` while a reload is reading it, and whose
    /// definitions a test can edit between reloads.
    final class RacingSource: Sendable {
        let duringRead = LockedState<LockedCallback<Void>?>(nil)
        let pageSizeDefault = LockedState(20)

        func makeContext() throws -> AppContext {
            let source = ConfigurationSource(environment: "test") { [self] purpose in
                let pageSize = pageSizeDefault.withLock { $0 }
                let memory = ConfigurationSource.memory(
                    definitions: [
                        ConfigSource(
                            name: "<beneficiaries>",
                            text: ContextFixtures.definitions.replacingDefault(of: "pageSize", with: pageSize)),
                        ConfigSource(name: "<preferences>", text: ContextFixtures.preferences),
                    ],
                    environment: "test", environmentOverlay: nil, deploymentOverlays: [])
                let loaded = memory.load(purpose)
                duringRead.withLock { $0 }?.call(())
                return loaded
            }
            return try AppContext(
                loader: ContextLoader(source: source, preferencesFile: nil, overridesFile: nil), label: "root",
                settings: ContextSettings())
        }
    }

    @Test("An override set while a reload reads is not reverted, and observers hear only the write")
    func overrideDuringReload() throws {
        let source = RacingSource()
        let context = try source.makeContext()
        let seen = Recorder<Int>()
        let token = context.observe(.pageSize) { seen.record($0) }
        source.duringRead.withLock { $0 = LockedCallback { _ in try? context.setOverride(.pageSize, to: 42) } }
        context.reload()
        #expect(context[.pageSize] == 42)
        #expect(context.details(for: .pageSize).reason == .override)
        #expect(seen.values == [42])
        let reloadChanges = context.changeLog.filter {
            if case .reload = $0.cause { return true } else { return false }
        }
        #expect(reloadChanges.allSatisfy { $0.changes.isEmpty })
        token.cancel()
    }

    @Test("A preference and a fleet value set while a reload reads are not reverted")
    func preferenceAndFleetDuringReload() throws {
        let source = RacingSource()
        let context = try source.makeContext()
        source.duringRead.withLock {
            $0 = LockedCallback { _ in
                try? context.setPreference(.darkMode, to: true)
                context.replaceFleetLayer(
                    [
                        "beneficiaries.sortOrder": ProvidedValue(
                            "name", origin: "test", path: "/test/beneficiaries.sortOrder")
                    ], source: "test",
                    revision: 2)
            }
        }
        context.reload()
        #expect(context[.darkMode] == true)
        #expect(context[.sortOrder] == .name)
    }

    @Test("A reload that changes the definitions still applies them over a write made meanwhile")
    func changedDefinitionsAndAWrite() throws {
        let source = RacingSource()
        let context = try source.makeContext()
        let child = context.makeChild(label: "child")
        source.pageSizeDefault.withLock { $0 = 30 }
        source.duringRead.withLock {
            $0 = LockedCallback { _ in
                try? context.setOverride(.showPendingList, to: true)
                try? child.setOverride(.sortOrder, to: .name)
            }
        }
        context.reload()
        #expect(context[.pageSize] == 30)
        #expect(context[.showPendingList] == true)
        #expect(child[.sortOrder] == .name)
        #expect(child[.pageSize] == 30)
    }
}

extension String {
    /// These definitions with `key`'s compact `default:` replaced (the fixtures write `key: { type: int, default: N`).
    fileprivate func replacingDefault(of key: String, with value: Int) -> String {
        var lines = split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        for index in lines.indices where lines[index].contains("\(key): {") {
            if let range = lines[index].range(of: #"default: \d+"#, options: .regularExpression) {
                lines[index].replaceSubrange(range, with: "default: \(value)")
            }
        }
        return lines.joined(separator: "\n")
    }
}

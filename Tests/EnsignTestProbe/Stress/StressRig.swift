import Ensign
import EnsignSupport

/// The context tree under stress (a root from files, children, grandchildren) and the
/// observers that check every notification.
final class StressRig: Sendable {
    let scenario: StressScenario
    let files: StressFiles
    let ledger: StressLedger
    let root: AppContext
    let children: [AppContext]
    let grandchildren: [AppContext]
    /// The per-key observers, checked against the final values.
    let observed: [ObservedKey]
    private let tokens: [ObservationToken]
    /// The echo observer's last acknowledged write of each key (it writes from its callback).
    let echoes = LockedState<[String: Int]>([:])

    init(scenario: StressScenario, files: StressFiles) throws {
        self.scenario = scenario
        self.files = files
        var configuration = AppContextConfiguration(
            definitionsDirectory: files.flagsDirectory, environment: StressFiles.environment,
            deploymentFiles: [files.deploymentFile], preferencesFile: files.preferencesFile,
            overridesFile: files.overridesFile)
        configuration.watchesFiles = false
        configuration.changeLogCapacity = 32
        let root = try AppContext(configuration: configuration)
        let children = (0..<scenario.children).map { root.makeChild(label: "child\($0)") }
        let grandchildren =
            scenario.grandchildren ? children.enumerated().map { $1.makeChild(label: "grandchild\($0)") } : []
        let tree = Self.tree(root, children, grandchildren)
        var observed: [ObservedKey] = []
        var tokens: [ObservationToken] = []
        let ledger = StressLedger()
        func watch(
            _ path: ContextPath, _ key: String, writtenAt owner: ContextPath = .root, preference: Bool = false
        ) {
            let context = tree.first { $0.path == path }!.context
            let record = ObservedKey(path: path, key: key, writtenAt: owner, ledger: ledger)
            observed.append(record)
            tokens.append(
                preference
                    ? context.observe(UserPreferenceKey(key, default: -1)) { record.told($0) }
                    : context.observe(FlagKey(key, default: -1)) { record.told($0) })
        }
        let rootKeys =
            scenario.overridePrefixes + scenario.persistingPrefixes + scenario.fleetPrefixes + scenario.reloadPrefixes
            + scenario.echoPrefixes
        for prefix in rootKeys { watch(.root, prefix + ".k0") }
        for prefix in scenario.preferencePrefixes { watch(.root, prefix + ".k0", preference: true) }
        let inherited = scenario.overridePrefixes.first.map { $0 + ".k1" }
        for index in children.indices {
            watch(.child(index), scenario.childPrefixes[index] + ".k0", writtenAt: .child(index))
            if let inherited { watch(.child(index), inherited) }
        }
        for index in grandchildren.indices {
            watch(.grandchild(index), scenario.grandchildPrefixes[index] + ".k0", writtenAt: .grandchild(index))
            watch(.grandchild(index), scenario.childPrefixes[index] + ".k1", writtenAt: .child(index))
            if let inherited { watch(.grandchild(index), inherited) }
        }
        for (path, context) in tree {
            tokens.append(context.observeAll { Self.check(batch: $0, in: path, ledger: ledger) })
        }
        (self.root, self.children, self.grandchildren, self.ledger) = (root, children, grandchildren, ledger)
        self.observed = observed
        self.tokens = tokens
        if let writer = scenario.overridePrefixes.first { startEcho(on: writer + ".k0") }
    }

    /// Every context of the tree with its path, root first.
    var tree: [(path: ContextPath, context: AppContext)] { Self.tree(root, children, grandchildren) }

    private static func tree(
        _ root: AppContext, _ children: [AppContext], _ grandchildren: [AppContext]
    ) -> [(path: ContextPath, context: AppContext)] {
        [(.root, root)] + children.enumerated().map { (.child($0), $1) }
            + grandchildren.enumerated().map { (.grandchild($0), $1) }
    }

    func context(_ path: ContextPath) -> AppContext {
        switch path {
        case .root: return root
        case .child(let index): return children[index]
        case .grandchild(let index): return grandchildren[index]
        }
    }

    /// The contexts that see a write made at `path`: it and its descendants.
    func contextsSeeing(_ path: ContextPath) -> [ContextPath] {
        switch path {
        case .root: return tree.map(\.path)
        case .child(let index): return scenario.grandchildren ? [path, .grandchild(index)] : [path]
        case .grandchild: return [path]
        }
    }

    /// A batch never moves an owned key backwards, and a reload changes only the keys the
    /// reload owns (the definitions are rewritten cosmetically, nothing else in its files):
    /// not an owned key, not the targeted flag (a reload must not bring back an old
    /// evaluation context), nothing.
    private static func check(batch: ChangeBatch, in path: ContextPath, ledger: StressLedger) {
        let isReload: Bool
        if case .reload = batch.cause { isReload = true } else { isReload = false }
        for change in batch.changes {
            let (old, new) = (change.oldValue?.stressValue ?? -1, change.newValue?.stressValue ?? -1)
            if isReload && !change.key.hasPrefix("stress.r.") {
                ledger.broken(.reloadChangesOnlyWhatItRead, "\(change.key) \(old) → \(new) in \(path) [\(batch.cause)]")
            } else if StressScenario.isOwned(change.key) && new <= old {
                ledger.broken(.transactionsMoveForward, "\(change.key) in \(path) \(old) → \(new) [\(batch.cause)]")
            }
        }
    }

    /// On each change of `trigger`, writes the next value of an echo key from the callback,
    /// and checks that the write is readable at once.
    private func startEcho(on trigger: String) {
        let keys = scenario.echoPrefixes.flatMap(scenario.keys(under:))
        let (root, ledger, echoes) = (root, ledger, echoes)
        let counter = LockedState(0)
        let token = root.observe(FlagKey(trigger, default: -1)) { _ in
            let value = counter.withLock { count in
                count += 1
                return count
            }
            let key = keys[value % keys.count]
            do {
                try root.setOverride(keyNamed: key, to: .int(value), actor: "echo")
            } catch {
                ledger.broken(.runWorks, "the echo observer's write of \(key) failed: \(error)")
                return
            }
            let read = root.value(forKeyNamed: key)?.stressValue ?? -1
            if read != value {
                ledger.broken(.readYourWrite, "the echo observer set \(key) to \(value) and read \(read) at once")
            }
            echoes.withLock { $0[key] = value }
        }
        echoToken.withLock { $0 = token }
    }

    private let echoToken = LockedState<ObservationToken?>(nil)
}

extension StressScenario {
    /// Whether `key` has one owner that writes increasing values.
    static func isOwned(_ key: String) -> Bool {
        key.hasPrefix("stress.") && key != targetedKey && key != environmentKey
    }
}

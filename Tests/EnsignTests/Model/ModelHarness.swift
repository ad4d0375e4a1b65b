import EnsignTestSupport
import EnsignYAML
import Foundation

@testable import Ensign

/// The system under test: a real root context over real files (in a private directory,
/// on tmpfs when there is one so fsync costs nothing), its children and observers, driven by
/// the same operations as the reference model.
final class ModelHarness {
    let directory: String
    private(set) var contexts: [Int: AppContext] = [:]
    /// Each child's parent slot.
    private var parents: [Int: Int] = [:]
    private var tokens: [Int: ObservationToken] = [:]
    /// Each observer slot's registration number (numbers are never reused, so a notification
    /// from an observer that should have ended is never taken for a later one's).
    private(set) var registrations: [Int: Int] = [:]
    private var registrationCount = 0
    /// The tokens of observers whose context was dropped: kept (not cancelled), so that only
    /// the end of their context can stop them.
    var orphans: [ObservationToken] = []
    /// Notifications received, in order: (registration, value).
    private let received = Recorder<(registration: Int, value: JSONValue)>()
    /// What the fleet source holds (it replaces the whole layer on each change, as etcd's does).
    private var fleet: [String: ProvidedValue] = [:]
    private var fleetRevision: Int64 = 0
    /// Each live context's observe-all token, by context slot (see `ModelHarness+Batches`).
    var batchTokens: [Int: ObservationToken] = [:]
    /// Change batches received, in order: (context slot, batch).
    let receivedBatches = Recorder<(slot: Int, batch: ChangeBatch)>()
    /// The error of the last start, when it failed.
    private(set) var startError: AppContextLoadError?

    var definitionsPath: String { directory + "/flags/app.yaml" }
    var environmentPath: String { directory + "/flags/environments/\(ModelUniverse.environment).yaml" }
    func deploymentPath(_ index: Int) -> String { directory + "/deploy/d\(index).yaml" }
    var overridesPath: String { directory + "/state/overrides.yaml" }
    var preferencesPath: String { directory + "/state/preferences.yaml" }

    init(disk: ModelDisk) throws {
        let base = FileManager.default.isWritableFile(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()
        directory = base + "/ensign-model-\(UUID().uuidString)"
        for folder in ["", "/flags/environments", "/deploy", "/state"] {
            try FileManager.default.createDirectory(
                atPath: directory + folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        }
        write(definitionsPath, disk.definitions.text)
        write(environmentPath, disk.environment.text)
        // Another environment's overlay, never read by this app: its name makes the environments
        // known, so a start where nothing mentions `staging` any more must fail.
        write(directory + "/flags/environments/production.yaml", "flags:\n  app.flag: false\n")
        for (index, version) in disk.deployments.enumerated() { write(deploymentPath(index), version.text) }
    }

    deinit {
        setWriteFault(false)
        stop()
        try? FileManager.default.removeItem(atPath: directory)
    }

    var configuration: AppContextConfiguration {
        var configuration = AppContextConfiguration(
            definitionsDirectory: directory + "/flags", environment: ModelUniverse.environment,
            deploymentFiles: (0..<ModelOperationGenerator.deploymentCount).map(deploymentPath),
            preferencesFile: preferencesPath, overridesFile: overridesPath)
        configuration.watchesFiles = false
        // The model writes files at explicit flushes only; a background write of a failed
        // save, 50 ms later, landed inside a step of a run slowed by a loaded machine and
        // disagreed with it (seen once in CI, not on replay).
        configuration.persistenceCoalescingDelay = .seconds(3_600)
        return configuration
    }

    /// Starts the app; returns whether the start failed.
    @discardableResult
    func start() -> Bool {
        do {
            contexts = [0: try AppContext(configuration: configuration)]
            observeAll(slot: 0)
            startError = nil
            return false
        } catch {
            startError = error
            return true
        }
    }

    /// Stops the app: flushes its files and lets every context and observer go.
    func stop() {
        try? contexts[0]?.flush()
        for token in tokens.values { token.cancel() }
        tokens.removeAll()
        for token in batchTokens.values { token.cancel() }
        batchTokens.removeAll()
        registrations.removeAll()
        orphans.removeAll()
        fleet.removeAll()
        contexts.removeAll()
        parents.removeAll()
    }

    /// Takes the notifications received since the last call.
    func drainNotifications() -> [(registration: Int, value: JSONValue)] {
        received.takeAll()
    }

    /// The context in `slot`, through the `app` prefix scope when `viaScope` is set, and the
    /// name `key` has there.
    func target(_ slot: Int, _ key: String, viaScope: Bool) -> (AppContext, String)? {
        guard let context = contexts[slot] else { return nil }
        guard viaScope, key.hasPrefix(ModelUniverse.scopePrefix + ".") else { return (context, key) }
        return (context.scope(ModelUniverse.scopePrefix), String(key.dropFirst(ModelUniverse.scopePrefix.count + 1)))
    }

    // MARK: Files

    func write(_ path: String, _ text: String?) {
        guard let text else {
            unlink(path)
            return
        }
        try! text.write(toFile: path, atomically: true, encoding: .utf8)
    }

    /// What a persisted file holds now, read the way the model describes files.
    func persistedFile(at path: String) -> PersistedFileModel {
        guard let bytes = FileManager.default.contents(atPath: path) else { return .absent }
        guard !bytes.isEmpty else { return .empty }
        let documents: [YAMLNode]
        do {
            documents = try YAMLParser().documents(from: [UInt8](bytes), file: path)
        } catch {
            return .garbage
        }
        var values: [String: JSONValue] = [:]
        if case .object(let sections)? = documents.first.map(JSONValue.init) {
            for case .object(let section) in sections.values { values.merge(section) { $1 } }
        }
        return .values(values)
    }

    /// Edits a persisted file as another process would: from what it holds now.
    func edit(_ path: String, _ edit: ModelOperation.FileEdit) {
        let edited = persistedFile(at: path).edited(edit)
        switch edited {
        case .absent: write(path, nil)
        case .garbage: write(path, "flags: [ {\n")
        case .empty: write(path, "")
        case .values(let values): write(path, ModelYAML.overlayText(values))
        }
    }

    /// Makes the library's writes under the state directory fail with `ENOSPC`, or stop failing.
    func setWriteFault(_ isOn: Bool) {
        if isOn {
            FileSystemFaults.inject(ENOSPC, under: directory + "/state")
        } else {
            FileSystemFaults.clear(under: directory + "/state")
        }
    }

    // MARK: Observers

    /// Registers an observer of `key` in `slot` with a typed key of the key's type.
    func observe(slot: Int, context: Int, key: String, viaScope: Bool) {
        guard let (target, name) = target(context, key, viaScope: viaScope) else { return }
        registrationCount += 1
        let registration = registrationCount
        registrations[slot] = registration
        let record: @Sendable (JSONValue) -> Void = { [received] value in
            received.record((registration, value))
        }
        let label = "o\(slot)"
        tokens[slot] =
            switch ModelUniverse.codeDefault(for: key) {
            case .bool(let fallback) where ModelUniverse.isPreference(key):
                target.observe(UserPreferenceKey(name, default: fallback), label: label) { record(.bool($0)) }
            case .bool(let fallback):
                target.observe(FlagKey(name, default: fallback), label: label) { record(.bool($0)) }
            case .int(let fallback): target.observe(FlagKey(name, default: fallback), label: label) { record(.int($0)) }
            case .string(let fallback) where ModelUniverse.isPreference(key):
                target.observe(UserPreferenceKey(name, default: fallback), label: label) { record(.string($0)) }
            case .string(let fallback):
                target.observe(FlagKey(name, default: fallback), label: label) { record(.string($0)) }
            default: preconditionFailure("no typed key for \(key)")
            }
    }

    func cancelObserver(_ slot: Int) {
        registrations[slot] = nil
        tokens.removeValue(forKey: slot)?.cancel()
    }
    /// Puts (or, with `nil`, deletes) a fleet value and hands the source's whole layer to the root.
    func updateFleet(_ key: String, _ value: JSONValue?) {
        guard let root = contexts[0] else { return }
        fleet[key] = value.map { ProvidedValue($0, origin: "model", path: "/model/\(key)") }
        fleetRevision += 1
        root.replaceFleetLayer(fleet, source: "model", revision: fleetRevision)
    }

    // MARK: Children

    /// Makes a child of the context in `parent` in the empty `slot` (children sit in higher
    /// slots than their parents).
    func makeChild(slot: Int, parent: Int) {
        guard contexts[slot] == nil, parent < slot, let parentContext = contexts[parent] else { return }
        contexts[slot] = parentContext.makeChild(label: "c\(slot)")
        parents[slot] = parent
        observeAll(slot: slot)
    }

    /// Forgets the child in `slot`, the children below it, and the observers in
    /// `observerSlots` made on them: nothing cancels those observers; they must end with
    /// their contexts.
    func dropChild(_ slot: Int, observerSlots: [Int]) {
        guard slot != 0, contexts[slot] != nil else { return }
        for observer in observerSlots {
            registrations[observer] = nil
            if let token = tokens.removeValue(forKey: observer) { orphans.append(token) }
        }
        var dropped = [slot]
        while let next = parents.first(where: { dropped.contains($0.value) && !dropped.contains($0.key) })?.key {
            dropped.append(next)
        }
        for child in dropped {
            if let token = batchTokens.removeValue(forKey: child) { orphans.append(token) }
            contexts[child] = nil
            parents[child] = nil
        }
    }
}

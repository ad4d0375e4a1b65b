@testable import Ensign

/// The model's files: edits by hand, reloads and restarts.
extension ReferenceModel {
    /// Which files a reload reads again.
    struct ReloadParts: Equatable {
        var definitions: Bool
        var preferences: Bool
        var overrides: Bool

        static let everything = ReloadParts(definitions: true, preferences: true, overrides: true)
        static let nothing = ReloadParts(definitions: false, preferences: false, overrides: false)
    }

    /// Applies an edit of a file on disk (nothing is reloaded).
    mutating func applyFileEdit(_ operation: ModelOperation) {
        switch operation {
        case .writeDefinitions(let version): disk.definitions = version
        case .writeEnvironment(let version): disk.environment = version
        case .writeDeployment(let index, let version): disk.deployments[index] = version
        case .editOverridesFile(let edit): disk.overrides = disk.overrides.edited(edit)
        case .editPreferencesFile(let edit): disk.preferences = disk.preferences.edited(edit)
        default: preconditionFailure("\(operation) is not a file edit")
        }
    }

    /// Reads the requested files again. The definitions side (definitions, the environment's
    /// overlay, the deployment files) is applied whole or not at all; each persisted file is
    /// applied key by key where it differs from what the context last knew it to hold.
    mutating func reload(_ parts: ReloadParts) {
        guard var running else { return }
        defer { self.running = running }
        if parts.definitions {
            running.failingParts.remove("definitions")
            if definitionLayers(purpose: .reload) == nil { running.failingParts.insert("definitions") }
        }
        if parts.definitions, let layers = definitionLayers(purpose: .reload) {
            let before = running.definitions
            running.definitions = layers.definitions
            running.environmentOverlay = layers.environment
            running.deploymentOverlays = layers.deployments
            // A key defined only now takes its persisted value, unless it was written in memory.
            for (key, value) in running.overridesOnDisk
            where running.overrides[key] == nil && before[key] == nil && layers.definitions[key] != nil {
                running.overrides[key] = value
            }
            for (key, value) in running.preferencesOnDisk
            where running.preferences[key] == nil && before[key] == nil && layers.definitions[key] != nil {
                running.preferences[key] = value
            }
        }
        for (isRead, name, file) in [
            (parts.preferences, "preferences", disk.preferences), (parts.overrides, "overrides", disk.overrides),
        ] where isRead {
            running.failingParts.remove(name)
            if file.reread(against: running.definitions) == nil { running.failingParts.insert(name) }
        }
        if parts.preferences, let values = disk.preferences.reread(against: running.definitions) {
            // What failed to save is still this app's latest write: a re-read lays it over the file.
            Self.applyExternal(
                values.merging(running.unsavedPreferences), to: &running.preferences, known: &running.preferencesOnDisk)
            running.preferencesFileLastKnown = values
        }
        if parts.overrides, let values = disk.overrides.reread(against: running.definitions) {
            Self.applyExternal(
                values.merging(running.unsavedOverrides), to: &running.overrides, known: &running.overridesOnDisk)
            running.overridesFileLastKnown = values
        }
    }

    private static func applyExternal(
        _ values: [String: JSONValue], to layer: inout [String: JSONValue], known: inout [String: JSONValue]
    ) {
        for key in Set(known.keys).union(values.keys) where known[key] != values[key] {
            layer[key] = values[key]
            known[key] = values[key]
        }
    }

    /// Stops the app and starts it again from the files; returns whether the start must fail.
    mutating func restart() -> Bool {
        flush()  // stopping saves what it can; what still fails to save is lost with the process
        running = nil
        guard let layers = definitionLayers(purpose: .start) else { return true }
        var started = RunningModel(
            definitions: layers.definitions, environmentOverlay: layers.environment,
            deploymentOverlays: layers.deployments)
        (started.preferences, started.preferencesOnDisk, disk.preferences) = disk.preferences.loadedAtStart(
            against: layers.definitions, writesFail: writesFail)
        (started.overrides, started.overridesOnDisk, disk.overrides) = disk.overrides.loadedAtStart(
            against: layers.definitions, writesFail: writesFail)
        (started.preferencesFileLastKnown, started.overridesFileLastKnown) = (
            started.preferencesOnDisk, started.overridesOnDisk
        )
        running = started
        return false
    }

    enum LoadPurpose { case start, reload }

    /// The definitions side as the files hold it, or `nil` when it has errors (or, at start,
    /// when no file mentions the environment).
    func definitionLayers(purpose: LoadPurpose) -> (
        definitions: [String: ModelDefinition], environment: [String: JSONValue], deployments: [[String: JSONValue]]
    )? {
        guard let definitions = disk.definitions.definitions else { return nil }
        func overlay(_ version: OverlayVersion, isDeployment: Bool) -> [String: JSONValue]?? {
            switch version {
            // Deleted while running: a removal. At start a missing deployment file is an error.
            case .deleted: return purpose == .start && isDeployment ? .some(nil) : .some([:])
            // An empty overlay is a warning at start and a failed reload while running.
            case .empty: return purpose == .start ? .some([:]) : .some(nil)
            case .syntaxError: return .some(nil)
            default:
                let values = version.values!
                let fits = values.allSatisfy { key, value in definitions[key].map { $0.fits(value) } ?? true }
                return fits ? .some(values.filter { definitions[$0.key] != nil }) : .some(nil)
            }
        }
        guard case .some(.some(let environment)) = overlay(disk.environment, isDeployment: false) else { return nil }
        var deployments: [[String: JSONValue]] = []
        for version in disk.deployments {
            guard case .some(.some(let values)) = overlay(version, isDeployment: true) else { return nil }
            deployments.append(values)
        }
        // `environments/production.yaml` is always there, so the environments are known.
        if purpose == .start, disk.environment == .deleted,
            !definitions.values.contains(where: { $0.stagingValue != nil })
        {
            return nil
        }
        return (definitions, environment, deployments)
    }
}

extension PersistedFileModel {
    /// The file after someone else edits it.
    func edited(_ edit: ModelOperation.FileEdit) -> PersistedFileModel {
        switch edit {
        case .set(let key, let value):
            var values = mergeBase
            values[key] = value
            return .values(values)
        case .remove(let key):
            var values = mergeBase
            values[key] = nil
            return .values(values)
        case .garbage: return .garbage
        case .empty: return .empty
        case .delete: return .absent
        }
    }

    /// What a reload reads from the file: every value in it (keys the definitions do not know
    /// included), or `nil` when the reload of this file fails (not YAML, emptied, or a value
    /// that does not fit its definition).
    func reread(against definitions: [String: ModelDefinition]) -> [String: JSONValue]? {
        switch self {
        case .absent: return [:]
        case .garbage, .empty: return nil
        case .values(let values):
            let fits = values.allSatisfy { key, value in definitions[key].map { $0.fits(value) } ?? true }
            return fits ? values : nil
        }
    }

    /// What a start reads from the file: the values in force, what the context knows the file
    /// holds, and the file afterwards (one with problems is set aside and its valid values are
    /// written back; one that is not YAML is set aside whole). When the valid values cannot be
    /// written back, the file stays as it was: setting it aside would lose them from disk.
    func loadedAtStart(against definitions: [String: ModelDefinition], writesFail: Bool) -> (
        inForce: [String: JSONValue], onDisk: [String: JSONValue], file: PersistedFileModel
    ) {
        switch self {
        case .absent, .empty: return ([:], [:], self)
        case .garbage: return ([:], [:], .absent)
        case .values(let values):
            let valid = values.filter { key, value in definitions[key].map { $0.fits(value) } ?? true }
            let inForce = valid.filter { definitions[$0.key] != nil }
            guard valid.count < values.count, !(writesFail && !valid.isEmpty) else { return (inForce, valid, self) }
            return (inForce, valid, valid.isEmpty ? .absent : .values(valid))
        }
    }
}

extension Dictionary where Key == String, Value == JSONValue {
    /// These values with `changes` laid over them (`nil` removes a key).
    func merging(_ changes: [String: JSONValue?]) -> [String: JSONValue] {
        var merged = self
        for (key, value) in changes { merged[key] = value }
        return merged
    }
}

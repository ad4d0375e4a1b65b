@testable import Ensign

/// The model's writes: overrides, preferences, the evaluation context, batches, children
/// and observers. Each returns whether the library must throw: a refused write (nothing
/// changes), or a persisted one that is in force but could not be saved.
extension ReferenceModel {
    /// Applies a step that does not touch the files by hand; returns whether it is refused.
    mutating func applyWrite(_ operation: ModelOperation) -> Bool {
        guard var running else { return false }
        defer { self.running = running }
        switch operation {
        case .setOverride(let slot, let key, let value, let persist, _):
            guard running.isLive(slot) else { return false }
            guard running.accepts(value, for: key), !(persist && slot != 0) else { return true }
            return !setOverride(key, value, persist: persist, in: slot, running: &running)
        case .removeOverride(let slot, let key):
            guard running.isLive(slot) else { return false }
            removeOverride(key, in: slot, running: &running)
        case .removeAllOverrides(let slot):
            guard running.isLive(slot) else { return false }
            if slot != 0 {
                running.children[slot]!.scopeOverrides.removeAll()
            } else {
                for key in Set(running.overrides.keys).union(running.overridesOnDisk.keys) {
                    removeOverride(key, in: 0, running: &running)
                }
            }
        case .toggle(let slot, let key):
            guard running.isLive(slot) else { return false }
            guard let definition = running.definitions[key], definition.type == .bool else { return true }
            self.running = running
            let current = resolve(key, in: slot).value?.boolValue ?? false
            setOverride(key, .bool(!current), persist: false, in: slot, running: &running)
        case .setPreference(let slot, let key, let value):
            guard running.isLive(slot) else { return false }
            guard running.accepts(value, for: key), ModelUniverse.isPreference(key) else { return true }
            running.preferences[key] = value
            running.preferencesOnDisk[key] = value
            return !writePersisted([key: value], in: .preferences, running: &running)
        case .removePreference(let key):
            removePreference(key, running: &running)
        case .setCountry(let slot, let country):
            guard running.isLive(slot) else { return false }
            running.setCountry(country, in: slot)
        case .fleetSet(let key, let value):
            running.fleet[key] = value
        case .fleetRemove(let key):
            running.fleet[key] = nil
        case .batch(let slot, let items):
            guard running.isLive(slot) else { return false }
            return applyBatch(items, in: slot, running: &running)
        case .makeChild(let slot, let parent):
            guard running.children[slot] == nil, running.isLive(parent), parent < slot else { return false }
            running.children[slot] = RunningModel.ChildModel(parent: parent)
        case .dropChild(let slot):
            guard running.children[slot] != nil else { return false }
            let dropped = Set(running.subtree(of: slot))
            for child in dropped { running.children[child] = nil }
            running.observers = running.observers.filter { !dropped.contains($0.value.context) }
        case .observe(let slot, let context, let key, _):
            guard running.isLive(context), running.observers[slot] == nil else { return false }
            running.observers[slot] = RunningModel.ObserverModel(context: context, key: key)
        case .cancelObserver(let slot):
            running.observers[slot] = nil
        default:
            preconditionFailure("\(operation) is not a write")
        }
        return false
    }

    /// Returns whether the write is saved (or needs no saving).
    @discardableResult
    private mutating func setOverride(
        _ key: String, _ value: JSONValue, persist: Bool, in slot: Int, running: inout RunningModel
    ) -> Bool {
        if slot != 0 {
            running.children[slot]!.scopeOverrides[key] = value
            return true
        }
        running.overrides[key] = value
        guard persist else { return true }
        running.overridesOnDisk[key] = value
        return writePersisted([key: value], in: .overrides, running: &running)
    }

    private mutating func removeOverride(_ key: String, in slot: Int, running: inout RunningModel) {
        if slot != 0 {
            running.children[slot]!.scopeOverrides[key] = nil
            return
        }
        running.overrides[key] = nil
        guard running.overridesOnDisk[key] != nil else { return }
        running.overridesOnDisk[key] = nil
        writePersisted([key: nil], in: .overrides, running: &running)
    }

    private mutating func removePreference(_ key: String, running: inout RunningModel) {
        running.preferences[key] = nil
        guard running.preferencesOnDisk[key] != nil else { return }
        running.preferencesOnDisk[key] = nil
        writePersisted([key: nil], in: .preferences, running: &running)
    }

    /// A batch is checked whole before anything changes; overrides and the country in a child
    /// are its own, preferences go to the root.
    private mutating func applyBatch(
        _ items: [ModelOperation.BatchItem], in slot: Int, running: inout RunningModel
    ) -> Bool {
        for item in items {
            switch item {
            case .setOverride(let key, let value) where !running.accepts(value, for: key): return true
            case .setPreference(let key, let value)
            where !running.accepts(value, for: key) || !ModelUniverse.isPreference(key):
                return true
            default: continue
            }
        }
        for item in items {
            switch item {
            case .setOverride(let key, let value): setOverride(key, value, persist: false, in: slot, running: &running)
            case .removeOverride(let key): removeOverride(key, in: slot, running: &running)
            case .setPreference(let key, let value):
                running.preferences[key] = value
                running.preferencesOnDisk[key] = value
                writePersisted([key: value], in: .preferences, running: &running)
            case .setCountry(let country): running.setCountry(country, in: slot)
            }
        }
        return false
    }
}

extension RunningModel {
    /// Sets the root's country, or a child's own (`nil`: it reads its parent's again).
    mutating func setCountry(_ country: String?, in slot: Int) {
        if slot == 0 { self.country = country } else { children[slot]!.country = country }
    }
}

/// The two files the library writes.
enum PersistedFileKind { case overrides, preferences }

extension ReferenceModel {
    /// Merges the app's own changes into a persisted file: the values on disk (someone
    /// else's edits included) with the changed keys replaced. A file that is not YAML is set
    /// aside, and an emptied one holds nothing to keep: either way the write starts from what
    /// the app last read or wrote there, so its own earlier writes are not lost.
    ///
    /// While writes fail, the changes wait (a re-read still sees them) and the status is
    /// degraded; the next write that succeeds saves them with its own. Returns whether this
    /// write succeeded.
    @discardableResult
    mutating func writePersisted(
        _ changes: [String: JSONValue?], in kind: PersistedFileKind, running: inout RunningModel
    ) -> Bool {
        let area = kind == .overrides ? "overrides write" : "preferences write"
        var unsaved = kind == .overrides ? running.unsavedOverrides : running.unsavedPreferences
        for (key, value) in changes { unsaved[key] = value }
        if writesFail {
            running.failingParts.insert(area)
            if kind == .overrides { running.unsavedOverrides = unsaved } else { running.unsavedPreferences = unsaved }
            return false
        }
        let file = kind == .overrides ? disk.overrides : disk.preferences
        let lastKnown = kind == .overrides ? running.overridesFileLastKnown : running.preferencesFileLastKnown
        var values = file == .garbage || file == .empty ? lastKnown : file.mergeBase
        for (key, value) in unsaved { values[key] = value }
        running.failingParts.remove(area)
        if kind == .overrides {
            disk.overrides = .values(values)
            running.overridesFileLastKnown = values
            running.unsavedOverrides = [:]
        } else {
            disk.preferences = .values(values)
            running.preferencesFileLastKnown = values
            running.unsavedPreferences = [:]
        }
        return true
    }

    /// Writes what is waiting to be saved, as `flush()` does (and as time passing does).
    mutating func flush() {
        guard var running else { return }
        defer { self.running = running }
        if !running.unsavedOverrides.isEmpty { writePersisted([:], in: .overrides, running: &running) }
        if !running.unsavedPreferences.isEmpty { writePersisted([:], in: .preferences, running: &running) }
    }
}

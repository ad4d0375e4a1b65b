import EnsignTestSupport

@testable import Ensign

/// One step of a generated sequence: something an app, a user, an editor or an operator
/// does to a running context or to its files.
///
/// Steps name contexts and observers by slot (0 is the root; 1–3 are children), so a
/// shrunk sequence that drops the step creating a child still replays: a step whose slot
/// is empty does nothing, in the model and in the real context alike.
enum ModelOperation: Hashable, CustomStringConvertible {
    /// One write inside a batch.
    enum BatchItem: Hashable, CustomStringConvertible {
        case setOverride(String, JSONValue)
        case removeOverride(String)
        case setPreference(String, JSONValue)
        case setCountry(String?)

        var description: String {
            switch self {
            case .setOverride(let key, let value): "set \(key)=\(value.jsonText)"
            case .removeOverride(let key): "remove \(key)"
            case .setPreference(let key, let value): "pref \(key)=\(value.jsonText)"
            case .setCountry(let country): "country=\(country ?? "none")"
            }
        }
    }

    /// An edit of the overrides or preferences file by someone else (another process, a person).
    enum FileEdit: Hashable, CustomStringConvertible {
        case set(String, JSONValue)
        case remove(String)
        case garbage
        case empty
        case delete

        var description: String {
            switch self {
            case .set(let key, let value): "set \(key)=\(value.jsonText)"
            case .remove(let key): "remove \(key)"
            case .garbage: "garbage"
            case .empty: "empty"
            case .delete: "delete"
            }
        }
    }

    case setOverride(context: Int, key: String, value: JSONValue, persist: Bool, viaScope: Bool)
    case removeOverride(context: Int, key: String)
    case removeAllOverrides(context: Int)
    case toggle(context: Int, key: String)
    case setPreference(context: Int, key: String, value: JSONValue)
    case removePreference(key: String)
    /// The root's evaluation context, or a child's own.
    case setCountry(context: Int, String?)
    /// The fleet source puts a value (checked against the definitions, maybe refused) or deletes one.
    case fleetSet(key: String, value: JSONValue)
    case fleetRemove(key: String)
    case batch(context: Int, items: [BatchItem])
    case makeChild(slot: Int, parent: Int)
    case dropChild(slot: Int)
    case observe(slot: Int, context: Int, key: String, viaScope: Bool)
    case cancelObserver(slot: Int)
    case writeDefinitions(DefinitionsVersion)
    case writeEnvironment(OverlayVersion)
    case writeDeployment(index: Int, OverlayVersion)
    case editOverridesFile(FileEdit)
    case editPreferencesFile(FileEdit)
    /// `reload()`: every file.
    case reload
    /// A reload of the files edited since the last one, as the file watcher asks for it.
    case reloadChanged
    /// The app stops (its pending writes flushed) and starts again from the files.
    case restart
    /// The library's writes to the state directory start (or stop) failing, as on a full disk.
    case setWriteFault(Bool)

    var description: String {
        switch self {
        case .setOverride(let context, let key, let value, let persist, let viaScope):
            "c\(context)\(viaScope ? "/scope" : "").setOverride(\(key), \(value.jsonText)\(persist ? ", persist" : ""))"
        case .removeOverride(let context, let key): "c\(context).removeOverride(\(key))"
        case .removeAllOverrides(let context): "c\(context).removeAllOverrides()"
        case .toggle(let context, let key): "c\(context).toggle(\(key))"
        case .setPreference(let context, let key, let value): "c\(context).setPreference(\(key), \(value.jsonText))"
        case .removePreference(let key): "removePreference(\(key))"
        case .setCountry(let context, let country): "c\(context).setEvaluationContext(country: \(country ?? "none"))"
        case .fleetSet(let key, let value): "fleet put \(key)=\(value.jsonText)"
        case .fleetRemove(let key): "fleet delete \(key)"
        case .batch(let context, let items): "c\(context).batch[\(items.map(\.description).joined(separator: ", "))]"
        case .makeChild(let slot, let parent): "c\(slot) = c\(parent).makeChild()"
        case .dropChild(let slot): "drop c\(slot) (and its children)"
        case .observe(let slot, let context, let key, let viaScope):
            "o\(slot) = c\(context)\(viaScope ? "/scope" : "").observe(\(key))"
        case .cancelObserver(let slot): "o\(slot).cancel()"
        case .writeDefinitions(let version): "write flags/app.yaml: \(version)"
        case .writeEnvironment(let version): "write environments/staging.yaml: \(version)"
        case .writeDeployment(let index, let version): "write deployment \(index): \(version)"
        case .editOverridesFile(let edit): "edit overrides file: \(edit)"
        case .editPreferencesFile(let edit): "edit preferences file: \(edit)"
        case .reload: "reload()"
        case .reloadChanged: "watcher reload of the edited files"
        case .restart: "restart"
        case .setWriteFault(let isOn): isOn ? "the disk fills up (writes fail)" : "the disk has room again"
        }
    }
}

/// Draws operations at random from a seeded generator, weighted toward writes and reloads.
struct ModelOperationGenerator {
    static let contextSlots = 0...3
    static let observerSlots = 0...5
    static let deploymentCount = 2

    var random: SplitMix64

    mutating func next() -> ModelOperation {
        let key = pick(ModelUniverse.keys)
        let context = random.next(below: 10) < 6 ? 0 : Int(random.next(below: 3)) + 1
        switch random.next(below: 100) {
        case 0..<20:
            return .setOverride(
                context: context, key: key, value: value(for: key), persist: random.next(below: 3) == 0,
                viaScope: key.hasPrefix("app.") && random.next(below: 3) == 0)
        case 20..<26: return .removeOverride(context: context, key: key)
        case 26..<28: return .removeAllOverrides(context: context)
        case 28..<31: return .toggle(context: context, key: key)
        case 31..<38:
            let preference = pick(["p.dark", "p.lang", "p.lang", "app.size"])
            return .setPreference(context: context, key: preference, value: value(for: preference))
        case 38..<41: return .removePreference(key: pick(["p.dark", "p.lang"]))
        case 41..<44: return .setCountry(context: context, pick(["FR", "DE", nil]))
        case 44..<48:
            return .batch(context: context, items: (0..<Int(random.next(below: 3)) + 1).map { _ in batchItem() })
        case 48..<52:
            let slot = Int(random.next(below: 3)) + 1
            return .makeChild(slot: slot, parent: Int(random.next(below: UInt64(slot))))
        case 52..<54: return .dropChild(slot: Int(random.next(below: 3)) + 1)
        case 54..<59:
            return .observe(
                slot: pick(Array(Self.observerSlots)), context: context, key: key,
                viaScope: key.hasPrefix("app.") && random.next(below: 2) == 0)
        case 59..<61: return .cancelObserver(slot: pick(Array(Self.observerSlots)))
        case 61..<66: return .writeDefinitions(pick(DefinitionsVersion.allCases))
        case 66..<70: return .writeEnvironment(pick(OverlayVersion.allCases))
        case 70..<74:
            return .writeDeployment(
                index: Int(random.next(below: UInt64(Self.deploymentCount))), pick(OverlayVersion.allCases))
        case 74..<78: return .editOverridesFile(fileEdit())
        case 78..<81: return .editPreferencesFile(fileEdit(preferences: true))
        case 81..<86: return .reload
        case 86..<88: return .fleetSet(key: key, value: value(for: key))
        case 88: return .fleetRemove(key: key)
        case 89..<95: return .reloadChanged
        case 95, 96: return .setWriteFault(random.next(below: 2) == 0)
        default: return .restart
        }
    }

    private mutating func batchItem() -> ModelOperation.BatchItem {
        let key = pick(ModelUniverse.keys)
        switch random.next(below: 8) {
        case 0..<4: return .setOverride(key, value(for: key))
        case 4: return .removeOverride(key)
        case 5, 6:
            let preference = pick(["p.dark", "p.lang"])
            return .setPreference(preference, value(for: preference))
        default: return .setCountry(pick(["FR", "DE", nil]))
        }
    }

    private mutating func fileEdit(preferences: Bool = false) -> ModelOperation.FileEdit {
        let key = preferences ? pick(["p.dark", "p.lang"]) : pick(ModelUniverse.keys)
        switch random.next(below: 20) {
        case 0..<10: return .set(key, value(for: key))
        case 10..<15: return .remove(key)
        case 15, 16: return .garbage
        case 17, 18: return .empty
        default: return .delete
        }
    }

    private mutating func value(for key: String) -> JSONValue {
        pick(ModelUniverse.candidateValues(for: key))
    }

    private mutating func pick<Element>(_ elements: [Element]) -> Element {
        elements[Int(random.next(below: UInt64(elements.count)))]
    }
}

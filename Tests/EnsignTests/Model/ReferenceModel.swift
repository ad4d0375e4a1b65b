@testable import Ensign

/// The obviously correct reference the model-based tests compare a real context with: a
/// dictionary per layer and resolution in the documented order, nothing else.
///
/// It knows the documented rules and nothing of how the library implements them: the layer
/// order, "the latest write to a key wins", a value that stops fitting its definition is kept
/// but not applied, a reload that finds errors changes nothing of its own, an external edit of
/// a persisted file is applied key by key, a persisted write is on disk when it returns.
struct ReferenceModel {
    /// What the files on disk hold.
    var disk: ModelDisk
    /// The running app, or `nil` while it is stopped (its last start failed).
    var running: RunningModel?
    /// Whether the library's writes to the state directory fail (a full disk).
    var writesFail = false

    /// The result of resolving one key in one context.
    struct Resolved: Equatable, CustomStringConvertible {
        var value: JSONValue?
        var reason: ResolutionReason
        var errorCode: ResolutionErrorCode?
        var layer: ValueLayer

        static let notFound = Resolved(value: nil, reason: .error, errorCode: .flagNotFound, layer: .codeDefault)

        var description: String {
            "\(value?.jsonText ?? "nil") \(reason)\(errorCode.map { " \($0)" } ?? "") (\(layer))"
        }
    }

    /// Resolves `key` in the context in `slot`.
    func resolve(_ key: String, in slot: Int) -> Resolved {
        guard let running else { return .notFound }
        return running.resolve(key, in: slot, country: running.country(in: slot))
    }

    /// The value an observer of `key` in `slot` receives: the resolved value or the code default.
    func observedValue(_ key: String, in slot: Int) -> JSONValue {
        resolve(key, in: slot).value ?? ModelUniverse.codeDefault(for: key)
    }
}

/// The files as the model sees them.
struct ModelDisk {
    var definitions: DefinitionsVersion
    var environment: OverlayVersion
    var deployments: [OverlayVersion]
    var overrides: PersistedFileModel = .absent
    var preferences: PersistedFileModel = .absent
}

/// What a persisted file (overrides or preferences) holds.
enum PersistedFileModel: Equatable, CustomStringConvertible {
    case absent
    /// Text that is not YAML.
    case garbage
    /// Zero bytes.
    case empty
    /// Values by key; some may not fit their definitions (another process wrote them).
    case values([String: JSONValue])

    /// The values a writer merging into the file starts from.
    var mergeBase: [String: JSONValue] {
        if case .values(let values) = self { return values }
        return [:]
    }

    var description: String {
        switch self {
        case .absent: "absent"
        case .garbage: "garbage"
        case .empty: "empty"
        case .values(let values): ModelFormat.values(values)
        }
    }
}

/// The running app's layers and the contexts and observers made on it.
struct RunningModel {
    var definitions: [String: ModelDefinition]
    var environmentOverlay: [String: JSONValue]
    var deploymentOverlays: [[String: JSONValue]]
    var overrides: [String: JSONValue] = [:]
    /// What the context believes the overrides file holds.
    var overridesOnDisk: [String: JSONValue] = [:]
    var preferences: [String: JSONValue] = [:]
    var preferencesOnDisk: [String: JSONValue] = [:]
    /// What each persisted file held when the app last read or wrote it (values another
    /// process put there and the app has not applied yet included).
    var overridesFileLastKnown: [String: JSONValue] = [:]
    var preferencesFileLastKnown: [String: JSONValue] = [:]
    /// Changes not saved because writes failed: retried with the next write (`nil`: a removal).
    var unsavedOverrides: [String: JSONValue?] = [:]
    var unsavedPreferences: [String: JSONValue?] = [:]
    var country: String?
    /// What the fleet source holds, checked or not (a value that does not fit is left out and degrades the status).
    var fleet: [String: JSONValue] = [:]
    /// The parts whose last reload failed (the context reports itself degraded until they read cleanly).
    var failingParts: Set<String> = []
    var children: [Int: ChildModel] = [:]
    var observers: [Int: ObserverModel] = [:]

    struct ChildModel {
        var parent: Int
        var scopeOverrides: [String: JSONValue] = [:]
        /// The country of the child's own evaluation context; `nil`: the parent's.
        var country: String?
    }

    struct ObserverModel {
        var context: Int
        var key: String
    }

    func isLive(_ slot: Int) -> Bool { slot == 0 || children[slot] != nil }

    /// Whether the context reports itself degraded: a failed reload, or a fleet value refused.
    var isDegraded: Bool {
        !failingParts.isEmpty || fleet.contains { key, value in definitions[key].map { !$0.fits(value) } ?? false }
    }

    /// The country targeting reads in `slot`: the nearest one set, the child's own first.
    func country(in slot: Int) -> String? {
        guard slot != 0, let child = children[slot] else { return country }
        return child.country ?? country(in: child.parent)
    }

    /// `key` in `slot`: the nearest scope override, else the root's layers evaluated for `country`.
    func resolve(_ key: String, in slot: Int, country: String?) -> ReferenceModel.Resolved {
        guard slot != 0, let child = children[slot] else { return resolveAtRoot(key, country: country) }
        guard let definition = definitions[key], let value = child.scopeOverrides[key], definition.fits(value) else {
            return resolve(key, in: child.parent, country: country)
        }
        return .init(value: value, reason: .override, errorCode: nil, layer: .scopeOverride)
    }

    /// Layers 2–7 for the root, targeting evaluated for `country`.
    func resolveAtRoot(_ key: String, country: String?) -> ReferenceModel.Resolved {
        guard let definition = definitions[key] else { return .notFound }
        if let value = overrides[key], definition.fits(value) {
            return .init(value: value, reason: .override, errorCode: nil, layer: .override)
        }
        if ModelUniverse.isPreference(key), let value = preferences[key], definition.fits(value) {
            return .init(value: value, reason: .preference, errorCode: nil, layer: .preference)
        }
        var winner = (value: definition.defaultValue, layer: ValueLayer.definition)
        if let value = definition.stagingValue { winner = (value, .environment) }
        if let value = environmentOverlay[key] { winner = (value, .environment) }
        for overlay in deploymentOverlays {
            if let value = overlay[key] { winner = (value, .deployment) }
        }
        if let value = fleet[key], definition.fits(value) { winner = (value, .fleet) }
        guard definition.isTargeted else {
            return .init(value: winner.value, reason: .staticValue, errorCode: nil, layer: winner.layer)
        }
        if country == "FR" {
            return .init(value: .bool(true), reason: .targetingMatch, errorCode: nil, layer: .targeting)
        }
        return .init(value: winner.value, reason: .defaultValue, errorCode: nil, layer: winner.layer)
    }

    /// Whether `value` is a value `key` accepts now.
    func accepts(_ value: JSONValue, for key: String) -> Bool {
        definitions[key]?.fits(value) ?? false
    }

    /// The slot and every slot below it.
    func subtree(of slot: Int) -> [Int] {
        [slot] + children.filter { $0.value.parent == slot }.keys.sorted().flatMap { subtree(of: $0) }
    }
}

/// Short, stable text for values in failure reports.
enum ModelFormat {
    static func values(_ values: [String: JSONValue]) -> String {
        "{" + values.keys.sorted().map { "\($0): \(values[$0]!.jsonText)" }.joined(separator: ", ") + "}"
    }
}

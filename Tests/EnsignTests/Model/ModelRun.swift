@testable import Ensign

/// Runs one sequence of operations on the reference model and on a real context side by
/// side, comparing after every step: each key's value, reason, error and layer in every live
/// context (and through a prefix scope), whether a write was refused, the notifications each
/// observer received, and what the persisted files hold.
struct ModelRun {
    /// Where a sequence first disagreed with the model.
    struct Failure: Error, CustomStringConvertible {
        /// The index of the step after which the disagreement showed (-1: the first start).
        var step: Int
        var message: String

        var description: String { "after step \(step): \(message)" }
    }

    let initial: ModelDisk
    let operations: [ModelOperation]

    /// Runs the sequence; returns its first disagreement, if any.
    func run() -> Failure? {
        var model = ReferenceModel(disk: initial, running: nil)
        let harness: ModelHarness
        do {
            harness = try ModelHarness(disk: initial)
        } catch {
            return Failure(step: -1, message: "cannot create the files: \(error)")
        }
        let expectedFailure = model.restart()
        if harness.start() != expectedFailure {
            return Failure(step: -1, message: startMismatch(expectedFailure, harness))
        }
        var dirty = DirtyFiles()
        for (index, operation) in operations.enumerated() {
            let before = observedValues(model)
            let valuesBefore = contextValues(model)
            let mismatch: String?
            switch operation {
            case .writeDefinitions, .writeEnvironment, .writeDeployment, .editOverridesFile, .editPreferencesFile:
                try? harness.contexts[0]?.flush()
                model.flush()
                model.applyFileEdit(operation)
                perform(fileEdit: operation, on: harness)
                dirty.mark(operation)
                mismatch = nil
            case .reload:
                model.reload(.everything)
                harness.contexts[0]?.reload()
                dirty = DirtyFiles()
                mismatch = nil
            case .reloadChanged:
                if dirty.parts != .nothing {
                    model.reload(dirty.parts)
                    harness.contexts[0]?.rootStore.reload(dirty.request(harness))
                }
                dirty = DirtyFiles()
                mismatch = nil
            case .setWriteFault(let isOn):
                model.writesFail = isOn
                harness.setWriteFault(isOn)
                mismatch = nil
            case .restart:
                let expectedFailure = model.restart()
                harness.stop()
                dirty = DirtyFiles()
                mismatch = harness.start() == expectedFailure ? nil : startMismatch(expectedFailure, harness)
            default:
                let dropped = droppedObservers(operation, model)
                let expectedRefusal = model.applyWrite(operation)
                let refused = perform(write: operation, on: harness, droppedObservers: dropped)
                mismatch =
                    refused == expectedRefusal
                    ? nil
                    : "the write was \(refused ? "refused" : "accepted"); the model \(expectedRefusal ? "refuses" : "accepts") it"
            }
            if let problem = mismatch ?? compare(model, harness, before: before)
                ?? compareBatches(model, harness, before: valuesBefore, operation: operation)
            {
                return Failure(step: index, message: "\(operation): \(problem)\n\(describe(model))")
            }
            // Time passes: writes that wait for a disk with room are retried once it has some.
            if !model.writesFail {
                model.flush()
                try? harness.contexts[0]?.flush()
            }
        }
        return nil
    }

    private func startMismatch(_ expectedFailure: Bool, _ harness: ModelHarness) -> String {
        expectedFailure
            ? "the app started; the model expects the start to fail"
            : "the start failed; the model expects it to succeed: \(harness.startError.map { "\($0)" } ?? "")"
    }

    // MARK: Performing

    private func perform(fileEdit operation: ModelOperation, on harness: ModelHarness) {
        switch operation {
        case .writeDefinitions(let version): harness.write(harness.definitionsPath, version.text)
        case .writeEnvironment(let version): harness.write(harness.environmentPath, version.text)
        case .writeDeployment(let index, let version): harness.write(harness.deploymentPath(index), version.text)
        case .editOverridesFile(let edit): harness.edit(harness.overridesPath, edit)
        case .editPreferencesFile(let edit): harness.edit(harness.preferencesPath, edit)
        default: preconditionFailure("\(operation) is not a file edit")
        }
    }

    /// Performs a write on the real contexts; returns whether it was refused (it threw).
    private func perform(write operation: ModelOperation, on harness: ModelHarness, droppedObservers: [Int]) -> Bool {
        do {
            switch operation {
            case .setOverride(let slot, let key, let value, let persist, let viaScope):
                guard let (context, name) = harness.target(slot, key, viaScope: viaScope) else { return false }
                try context.setOverride(keyNamed: name, to: value, persist: persist)
            case .removeOverride(let slot, let key):
                harness.contexts[slot]?.removeOverride(keyNamed: key)
            case .removeAllOverrides(let slot):
                harness.contexts[slot]?.removeAllOverrides()
            case .toggle(let slot, let key):
                try harness.contexts[slot]?.toggle(keyNamed: key)
            case .setPreference(let slot, let key, let value):
                try harness.contexts[slot]?.setPreference(keyNamed: key, to: value)
            case .removePreference(let key):
                harness.contexts[0]?.removePreference(keyNamed: key)
            case .setCountry(let slot, let country):
                harness.contexts[slot]?.setEvaluationContext(Self.evaluationContext(country, isChild: slot != 0))
            case .fleetSet(let key, let value):
                harness.updateFleet(key, value)
            case .fleetRemove(let key):
                harness.updateFleet(key, nil)
            case .batch(let slot, let items):
                guard let context = harness.contexts[slot] else { return false }
                try context.batch { batch in
                    for item in items {
                        switch item {
                        case .setOverride(let key, let value): try batch.setOverride(keyNamed: key, to: value)
                        case .removeOverride(let key): batch.removeOverride(FlagKey<JSONValue>(key, default: .null))
                        case .setPreference(let key, let value):
                            try batch.setPreference(UserPreferenceKey<JSONValue>(key, default: .null), to: value)
                        case .setCountry(let country):
                            batch.setEvaluationContext(Self.evaluationContext(country, isChild: slot != 0))
                        }
                    }
                }
                // A batch's file writes are coalesced, not acknowledged: settle them before comparing.
                try? harness.contexts[0]?.flush()
            case .makeChild(let slot, let parent):
                harness.makeChild(slot: slot, parent: parent)
            case .dropChild(let slot):
                harness.dropChild(slot, observerSlots: droppedObservers)
            case .observe(let slot, let context, let key, let viaScope):
                guard harness.registrations[slot] == nil else { return false }
                harness.observe(slot: slot, context: context, key: key, viaScope: viaScope)
            case .cancelObserver(let slot):
                harness.cancelObserver(slot)
            default:
                preconditionFailure("\(operation) is not a write")
            }
            return false
        } catch {
            return true
        }
    }

    /// A child's context also has an attribute no rule reads, so that one without a country is
    /// still a context of its own, merged over its parent's (and reads the parent's country).
    private static func evaluationContext(_ country: String?, isChild: Bool) -> EvaluationContext {
        var attributes: [String: JSONValue] = isChild ? ["tier": "gold"] : [:]
        if let country { attributes["country"] = .string(country) }
        return EvaluationContext(attributes: attributes)
    }

    /// The observers a `dropChild` step ends, by the model.
    private func droppedObservers(_ operation: ModelOperation, _ model: ReferenceModel) -> [Int] {
        guard case .dropChild(let slot) = operation, let running = model.running, running.children[slot] != nil else {
            return []
        }
        let dropped = Set(running.subtree(of: slot))
        return running.observers.filter { dropped.contains($0.value.context) }.map(\.key)
    }

    // MARK: Comparing

    /// What each observer of the model sees now.
    private func observedValues(_ model: ReferenceModel) -> [Int: JSONValue] {
        (model.running?.observers ?? [:]).mapValues { model.observedValue($0.key, in: $0.context) }
    }

    private func compare(_ model: ReferenceModel, _ harness: ModelHarness, before: [Int: JSONValue]) -> String? {
        let liveSlots = model.running.map { [0] + $0.children.keys.sorted() } ?? []
        guard Set(liveSlots) == Set(harness.contexts.keys) else {
            return "live contexts \(harness.contexts.keys.sorted()), the model has \(liveSlots)"
        }
        for slot in liveSlots {
            let context = harness.contexts[slot]!
            for key in ModelUniverse.keys {
                let expected = model.resolve(key, in: slot)
                let actual = Self.resolved(context.details(forKeyNamed: key))
                if actual != expected { return "c\(slot) \(key) is \(actual); the model says \(expected)" }
                guard let (scope, name) = harness.target(slot, key, viaScope: true), name != key else { continue }
                let scoped = Self.resolved(scope.details(forKeyNamed: name))
                if scoped != expected { return "c\(slot)/scope \(name) is \(scoped); the model says \(expected)" }
            }
        }
        if let running = model.running, harness.contexts[0]!.status.isDegraded != running.isDegraded {
            return "the status is \(harness.contexts[0]!.status.isDegraded ? "degraded" : "healthy");"
                + " the model's failing parts: \(running.failingParts.sorted()), fleet \(ModelFormat.values(running.fleet))"
        }
        if let problem = compareNotifications(model, harness, before: before) { return problem }
        for (name, path, expected) in [
            ("overrides", harness.overridesPath, model.disk.overrides),
            ("preferences", harness.preferencesPath, model.disk.preferences),
        ] {
            let actual = harness.persistedFile(at: path)
            if actual != expected { return "the \(name) file holds \(actual); the model says \(expected)" }
        }
        return nil
    }

    private func compareNotifications(_ model: ReferenceModel, _ harness: ModelHarness, before: [Int: JSONValue])
        -> String?
    {
        let after = observedValues(model)
        var expected: [String] = []
        for (slot, value) in after.sorted(by: { $0.key < $1.key }) {
            guard let old = before[slot], old != value, let registration = harness.registrations[slot] else { continue }
            expected.append("r\(registration)(o\(slot)) ← \(value.jsonText)")
        }
        let slotOf = Dictionary(uniqueKeysWithValues: harness.registrations.map { ($0.value, $0.key) })
        let received = harness.drainNotifications().map { notification in
            "r\(notification.registration)(\(slotOf[notification.registration].map { "o\($0)" } ?? "ended")) ← \(notification.value.jsonText)"
        }
        guard received.sorted() != expected.sorted() else { return nil }
        return "observers received \(received), the model expects \(expected)"
    }

    /// Every live context's resolved values by the model.
    private func contextValues(_ model: ReferenceModel) -> [Int: [String: JSONValue?]] {
        guard let running = model.running else { return [:] }
        var values: [Int: [String: JSONValue?]] = [:]
        for slot in [0] + running.children.keys {
            values[slot] = Dictionary(
                uniqueKeysWithValues: ModelUniverse.keys.map { ($0, model.resolve($0, in: slot).value) })
        }
        return values
    }

    /// Each context's observe-all observer got the keys whose value changed there, once each,
    /// with old and new values, in as many batches as the step has transactions (one, or two
    /// for a child's batch that also writes at the root), in transaction order.
    private func compareBatches(
        _ model: ReferenceModel, _ harness: ModelHarness, before: [Int: [String: JSONValue?]], operation: ModelOperation
    ) -> String? {
        let after = operation == .restart ? [:] : contextValues(model)
        let received = harness.drainBatches()
        let transactions = if case .batch(let slot, _) = operation, slot != 0 { 2 } else { 1 }
        for slot in Set(before.keys).union(after.keys).union(received.map(\.slot)).sorted() {
            let batches = received.filter { $0.slot == slot }.map(\.batch)
            var expected: [String] = []
            if let old = before[slot], let new = after[slot] {
                for key in ModelUniverse.keys where old[key]! != new[key]! {
                    expected.append("\(key): \(old[key]!?.jsonText ?? "nil") → \(new[key]!?.jsonText ?? "nil")")
                }
            }
            let changes = batches.flatMap(\.changes).map {
                "\($0.key): \($0.oldValue?.jsonText ?? "nil") → \($0.newValue?.jsonText ?? "nil")"
            }
            guard changes.sorted() == expected.sorted() else {
                return "c\(slot)'s observe-all observer got \(changes); the model expects \(expected)"
            }
            guard batches.count <= transactions, batches.allSatisfy({ !$0.changes.isEmpty }) else {
                return
                    "c\(slot)'s observe-all observer got \(batches.count) batches for one step: \(batches.map(\.keys))"
            }
            let order = batches.map(\.transaction)
            guard order == order.sorted(), Set(order).count == order.count else {
                return "c\(slot)'s batches came out of transaction order: \(order)"
            }
        }
        return nil
    }

    private static func resolved(_ details: ResolutionDetails<JSONValue>) -> ReferenceModel.Resolved {
        ReferenceModel.Resolved(
            value: details.value == .null ? nil : details.value, reason: details.reason, errorCode: details.errorCode,
            layer: details.source.layer)
    }

    private func describe(_ model: ReferenceModel) -> String {
        var lines = [
            "  files: \(model.disk.definitions), environment \(model.disk.environment), deployments \(model.disk.deployments),"
                + " overrides \(model.disk.overrides), preferences \(model.disk.preferences)"
        ]
        if let running = model.running {
            lines.append(
                "  model: overrides \(ModelFormat.values(running.overrides)) (on disk \(ModelFormat.values(running.overridesOnDisk))),"
                    + " preferences \(ModelFormat.values(running.preferences)) (on disk \(ModelFormat.values(running.preferencesOnDisk))),"
                    + " country \(running.country ?? "none"), children"
                    + " \(running.children.mapValues { "\($0.parent)\($0.country.map { " (country \($0))" } ?? "")" })")
        } else {
            lines.append("  model: not running")
        }
        return lines.joined(separator: "\n")
    }
}

/// The files edited since the last reload, as the file watcher reports them.
struct DirtyFiles {
    var definitionsSide: Set<String> = []
    var preferences = false
    var overrides = false

    var parts: ReferenceModel.ReloadParts {
        .init(definitions: !definitionsSide.isEmpty, preferences: preferences, overrides: overrides)
    }

    mutating func mark(_ operation: ModelOperation) {
        switch operation {
        case .writeDefinitions: definitionsSide.insert("definitions")
        case .writeEnvironment: definitionsSide.insert("environment")
        case .writeDeployment(let index, _): definitionsSide.insert("deployment \(index)")
        case .editOverridesFile: overrides = true
        case .editPreferencesFile: preferences = true
        default: break
        }
    }

    /// The request the watcher would make, naming the files by path.
    func request(_ harness: ModelHarness) -> ReloadRequest {
        let paths = definitionsSide.sorted().map { name -> String in
            switch name {
            case "definitions": harness.definitionsPath
            case "environment": harness.environmentPath
            default: harness.deploymentPath(Int(name.split(separator: " ").last!)!)
            }
        }
        return ReloadRequest(
            definitions: paths.isEmpty ? .none : .changed(paths), preferencesFile: preferences, overridesFile: overrides
        )
    }
}

import Ensign

extension StressRig {
    /// Root overrides of `prefix`'s keys: plain, through a prefix scope, or two in a batch;
    /// with `persisting`, one write in three is also saved to the overrides file.
    func overrideWriter(_ prefix: String, persisting: Bool, until deadline: ContinuousClock.Instant) -> StressRole {
        StressRole(name: (persisting ? "persister-" : "writer-") + prefix.dropFirst("stress.".count)) {
            [self] random, progress in
            var keys = OwnedKeys(scenario.keys(under: prefix))
            let typed = keys.names.map { FlagKey($0, default: -1) }
            let scope = root.scope(prefix)
            repeatUntil(deadline, progress) {
                let index = Int.random(in: 0..<keys.count, using: &random)
                let other = (index + 1) % keys.count
                do {
                    switch Int.random(in: 0..<6, using: &random) {
                    case 0:
                        let (first, second) = (keys.next(index), keys.next(other))
                        try root.batch(label: "stress") { batch in
                            try batch.setOverride(keyNamed: keys.names[index], to: .int(first))
                            try batch.setOverride(keyNamed: keys.names[other], to: .int(second))
                        }
                        expectReadBack(keys.names[other], second, at: .root, after: "a batch")
                    case 1:
                        try scope.setOverride(keyNamed: "k\(index)", to: .int(keys.next(index)))
                    default:
                        let persist = persisting && random.oneIn(3)
                        try root.setOverride(typed[index], to: keys.next(index), persist: persist)
                    }
                } catch {
                    refused(keys.names[index], error)
                }
                expectReadBack(keys.names[index], keys.values[index], at: .root, after: "setOverride")
            }
            return keys.acknowledged(at: .root)
        }
    }

    /// Preferences of `prefix`'s keys, set on the root or (one in four) through a child.
    func preferenceWriter(_ prefix: String, until deadline: ContinuousClock.Instant) -> StressRole {
        StressRole(name: "preferences-" + prefix.dropFirst("stress.".count)) { [self] random, progress in
            var keys = OwnedKeys(scenario.keys(under: prefix))
            let typed = keys.names.map { UserPreferenceKey($0, default: -1) }
            repeatUntil(deadline, progress) {
                let index = Int.random(in: 0..<keys.count, using: &random)
                let through = !children.isEmpty && random.oneIn(4) ? children.randomElement(using: &random)! : root
                do {
                    try through.setPreference(typed[index], to: keys.next(index))
                } catch {
                    refused(keys.names[index], error)
                }
                expectReadBack(keys.names[index], keys.values[index], at: .root, after: "setPreference")
            }
            return keys.acknowledged(at: .root)
        }
    }

    /// Scope overrides of `prefix`'s keys in the child (or grandchild) at `path`, one write in
    /// six a batch of two, one in six through a prefix scope of the child.
    func scopeWriter(_ prefix: String, at path: ContextPath, until deadline: ContinuousClock.Instant) -> StressRole {
        StressRole(name: "\(path.shortName)-writer") { [self] random, progress in
            var keys = OwnedKeys(scenario.keys(under: prefix))
            let typed = keys.names.map { FlagKey($0, default: -1) }
            let context = context(path)
            let scope = context.scope(prefix)
            repeatUntil(deadline, progress) {
                let index = Int.random(in: 0..<keys.count, using: &random)
                do {
                    let way = Int.random(in: 0..<6, using: &random)
                    if way == 0 {
                        let other = (index + 1) % keys.count
                        let (first, second) = (keys.next(index), keys.next(other))
                        try context.batch(label: "stress") { batch in
                            try batch.setOverride(typed[index], to: first)
                            try batch.setOverride(typed[other], to: second)
                        }
                        expectReadBack(keys.names[other], second, at: path, after: "a batch")
                    } else if way == 1 {
                        try scope.setOverride(keyNamed: "k\(index)", to: .int(keys.next(index)))
                    } else {
                        try context.setOverride(typed[index], to: keys.next(index))
                    }
                } catch {
                    refused(keys.names[index], error)
                }
                expectReadBack(keys.names[index], keys.values[index], at: path, after: "setOverride")
            }
            return keys.acknowledged(at: path)
        }
    }

    /// The fleet layer, replaced whole with one of its keys one higher each time, the way a
    /// fleet source applies a store's revisions.
    func fleetWriter(until deadline: ContinuousClock.Instant) -> StressRole {
        StressRole(name: "fleet") { [self] random, progress in
            var keys = OwnedKeys(scenario.fleetPrefixes.flatMap(scenario.keys(under:)))
            var revision: Int64 = 0
            repeatUntil(deadline, progress) {
                let index = Int.random(in: 0..<keys.count, using: &random)
                _ = keys.next(index)
                revision += 1
                var layer: [String: ProvidedValue] = [:]
                for (key, value) in zip(keys.names, keys.values) {
                    layer[key] = ProvidedValue(.int(value), origin: "stress rev \(revision)", path: "/stress/\(key)")
                }
                let problems = root.replaceFleetLayer(layer, source: "stress", revision: revision)
                if !problems.isEmpty { ledger.broken(.runWorks, "the fleet layer was refused: \(problems)") }
                expectReadBack(keys.names[index], keys.values[index], at: .root, after: "the fleet layer")
            }
            return keys.acknowledged(at: .root)
        }
    }

    /// Rewrites the files (the definitions and the environment overlay cosmetically; the
    /// deployment file's reload-owned keys one higher every other round) and reloads.
    func reloader(until deadline: ContinuousClock.Instant) -> StressRole {
        StressRole(name: "reloader") { [self] _, progress in
            let keys = scenario.reloadPrefixes.flatMap(scenario.keys(under:))
            var (round, value) = (0, 0)
            repeatUntil(deadline, progress) {
                round += 1
                if round % 2 == 0 { value += 1 }
                do {
                    try files.rewrite(round: round, reloadValue: value)
                } catch {
                    ledger.broken(.runWorks, "could not rewrite the files: \(error)")
                }
                let errors = root.reload().filter(\.isError)
                if !errors.isEmpty { ledger.broken(.runWorks, "reload \(round) failed: \(errors)") }
                for key in keys { expectReadBack(key, value, at: .root, after: "reload \(round)") }
            }
            // Value 0 is the definitions' default: nothing was written (nor notified) yet.
            return value == 0 ? [] : keys.map { Acknowledged(path: .root, key: $0, value: value) }
        }
    }

    /// The root's evaluation context, switched between FR (the targeted flag reads 1) and DE
    /// (0); between two switches, a request child made with the other country (or, one time
    /// in three, one made under a long-lived child) reads its own country's value whatever
    /// the root's says.
    func evaluationContextWriter(until deadline: ContinuousClock.Instant) -> StressRole {
        StressRole(name: "evaluation") { [self] random, progress in
            var expected: Int?
            repeatUntil(deadline, progress) {
                let isTargeted = random.oneIn(2)
                root.setEvaluationContext(EvaluationContext(attributes: ["country": .string(isTargeted ? "FR" : "DE")]))
                expected = isTargeted ? 1 : 0
                expectReadBack(StressScenario.targetedKey, expected!, at: .root, after: "setEvaluationContext")
                let parent = !children.isEmpty && random.oneIn(3) ? children.randomElement(using: &random)! : root
                let request = parent.makeChild(
                    label: "request",
                    evaluationContext: EvaluationContext(attributes: ["country": isTargeted ? "DE" : "FR"]))
                let read = request.value(forKeyNamed: StressScenario.targetedKey)?.stressValue ?? -1
                if read != 1 - expected! {
                    ledger.broken(
                        .readYourWrite,
                        "a request child made for \(isTargeted ? "DE" : "FR") read \(StressScenario.targetedKey) = \(read)"
                    )
                }
            }
            return expected.map { [Acknowledged(path: .root, key: StressScenario.targetedKey, value: $0)] } ?? []
        }
    }
}

import Ensign

extension StressRig {
    /// Reads owned keys through every context of the tree, every way a read can be made
    /// (by name, typed, through a prefix scope, `details`, several from one snapshot), and
    /// checks that no read returns less than this thread read before from the same context.
    func reader(_ index: Int, until deadline: ContinuousClock.Instant) -> StressRole {
        StressRole(name: "reader-\(index)") { [self] random, progress in
            let keys = scenario.flagKeys + scenario.preferenceKeys
            let isPreference = Set(scenario.preferenceKeys)
            let views = tree
            var highest = [Int](repeating: -1, count: views.count * keys.count)
            func saw(_ value: Int, view: Int, key: Int, how: String) {
                let slot = view * keys.count + key
                if value < highest[slot] {
                    ledger.broken(
                        .readsNeverGoBack,
                        "\(keys[key]) read \(value) in \(views[view].path) \(how) after \(highest[slot])")
                }
                // From the value read, so one step back counts once, not on every read until the key catches up.
                highest[slot] = value
            }
            repeatUntil(deadline, progress) {
                let view = Int.random(in: 0..<views.count, using: &random)
                let key = Int.random(in: 0..<keys.count, using: &random)
                let (context, name) = (views[view].context, keys[key])
                switch Int.random(in: 0..<5, using: &random) {
                case 0:
                    saw(context.value(forKeyNamed: name)?.stressValue ?? -1, view: view, key: key, how: "by name")
                case 1:
                    let value =
                        isPreference.contains(name)
                        ? context[UserPreferenceKey(name, default: -1)] : context[FlagKey(name, default: -1)]
                    saw(value, view: view, key: key, how: "typed")
                case 2:
                    let dot = name.lastIndex(of: ".")!
                    let scope = context.scope(String(name[..<dot]))
                    let value = scope.value(forKeyNamed: String(name[name.index(after: dot)...]))?.stressValue ?? -1
                    saw(value, view: view, key: key, how: "through a scope")
                case 3:
                    saw(context.details(forKeyNamed: name).value.stressValue, view: view, key: key, how: "in details")
                default:
                    let snapshot = context.snapshot
                    for _ in 0..<3 {
                        let other = Int.random(in: 0..<keys.count, using: &random)
                        let value = snapshot.value(forKeyNamed: keys[other])?.stressValue ?? -1
                        saw(value, view: view, key: other, how: "from a snapshot")
                    }
                }
            }
            return []
        }
    }

    /// Adds observers (per key, per key list, value streams) on any context, reads, and
    /// cancels them, while the other threads deliver to the registries.
    func observerChurn(until deadline: ContinuousClock.Instant) -> StressRole {
        StressRole(name: "observer-churn") { [self] random, progress in
            let keys = scenario.flagKeys
            let views = tree
            repeatUntil(deadline, progress) {
                let context = views.randomElement(using: &random)!.context
                let key = FlagKey(keys.randomElement(using: &random)!, default: -1)
                switch Int.random(in: 0..<3, using: &random) {
                case 0:
                    let token = context.observe(key) { _ in }
                    _ = context[key]
                    token.cancel()
                case 1:
                    let token = context.observe(keysNamed: [key.name]) { _ in }
                    _ = context.snapshot[key]
                    token.cancel()
                default:
                    _ = context.values(for: key)
                }
            }
            return []
        }
    }
}

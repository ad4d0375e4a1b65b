import Ensign
import EnsignSupport
import EnsignTestSupport

/// `EnsignTestProbe stress SCENARIO SEED SECONDS DIRECTORY`: runs a stress scenario's threads
/// for SECONDS, then checks the final values, and prints what it found.
///
/// Output lines: `beat MS name=count|done …` five times a second (the test's watchdog reads
/// them), then `violation N× PROMISE: EXAMPLE | …` for each broken promise, then
/// `result scenario=… seed=… threads=… operations=… seconds=… violations=…` and
/// `operations name=count …`. Exit status 0 when nothing was broken, 1 otherwise.
enum StressCommand {
    static func run(_ arguments: [String]) throws -> Int32 {
        guard arguments.count == 4, let scenario = StressScenario.all.first(where: { $0.name == arguments[0] }),
            let seed = UInt64(arguments[1]), let seconds = Double(arguments[2])
        else {
            say("usage: EnsignTestProbe stress children|reloads|mixed SEED SECONDS DIRECTORY")
            return 2
        }
        let rig = try StressRig(scenario: scenario, files: StressFiles(scenario: scenario, directory: arguments[3]))
        let start = ContinuousClock.now
        let deadline = start + .milliseconds(Int(seconds * 1000))
        let roles = rig.roles(until: deadline)
        let progress = roles.map { Progress(name: $0.name) }
        let main = Progress(name: "main", waiting: true)
        let heartbeat = Heartbeat(progress + [main])
        let acknowledged = LockedState<[Acknowledged]>([])
        let threads = zip(roles, progress).enumerated().map { index, pair in
            let (role, progress) = pair
            return StressThread(name: role.name) {
                var random = SplitMix64(seed: seed, stream: index)
                let writes = role.body(&random, progress)
                acknowledged.withLock { $0 += writes }
                progress.finish()
            }
        }
        for thread in threads { thread.join() }
        let elapsed = ContinuousClock.now - start
        main.start()
        rig.checkFinalValues(acknowledged.withLock { $0 }, progress: main)
        main.finish()
        heartbeat.stop()

        let (violations, total) = rig.ledger.report
        for violation in violations { say("violation \(violation)") }
        let operations = progress.map(\.count).reduce(0, +)
        let duration = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        say(
            "result scenario=\(scenario.name) seed=\(seed) threads=\(roles.count) operations=\(operations)"
                + " seconds=\((duration * 100).rounded() / 100) violations=\(total)")
        say((["operations"] + progress.map { "\($0.name)=\($0.count)" }).joined(separator: " "))
        return total == 0 ? 0 : 1
    }
}

extension StressRig {
    /// The threads of this rig's scenario.
    func roles(until deadline: ContinuousClock.Instant) -> [StressRole] {
        var roles = scenario.overridePrefixes.map { overrideWriter($0, persisting: false, until: deadline) }
        roles += scenario.persistingPrefixes.map { overrideWriter($0, persisting: true, until: deadline) }
        roles += scenario.preferencePrefixes.map { preferenceWriter($0, until: deadline) }
        roles += scenario.childPrefixes.indices.map {
            scopeWriter(scenario.childPrefixes[$0], at: .child($0), until: deadline)
        }
        roles += scenario.grandchildPrefixes.indices.map {
            scopeWriter(scenario.grandchildPrefixes[$0], at: .grandchild($0), until: deadline)
        }
        roles += (0..<scenario.readers).map { reader($0, until: deadline) }
        if scenario.fleet { roles.append(fleetWriter(until: deadline)) }
        if scenario.reloads { roles.append(reloader(until: deadline)) }
        if scenario.evaluationContexts { roles.append(evaluationContextWriter(until: deadline)) }
        if scenario.observerChurn { roles.append(observerChurn(until: deadline)) }
        return roles
    }

    /// Once the threads have stopped: every key reads its owner's last acknowledged write in
    /// every context that sees it, before and after one more reload (which must change
    /// nothing it did not read), and every observer was last told that value.
    func checkFinalValues(_ writes: [Acknowledged], progress: Progress) {
        let expected = writes + echoes.withLock { $0 }.map { Acknowledged(path: .root, key: $0.key, value: $0.value) }
        checkValues(expected, .lastWriteWins, "once the threads stopped", progress: progress)
        let errors = root.reload().filter(\.isError)
        if !errors.isEmpty { ledger.broken(.runWorks, "the final reload failed: \(errors)") }
        checkValues(expected, .reloadKeepsWrites, "after one more reload", progress: progress)
        let owners = expected.map { (ObservedKey.Owner(path: $0.path, key: $0.key), $0.value) }
        let finals = Dictionary(owners) { first, _ in first }
        for observer in observed {
            let final = finals[observer.owner]
            if observer.lastValue != final {
                ledger.broken(
                    .observerSawLastValue,
                    "the observer of \(observer.key) in \(observer.path) was last told "
                        + "\(observer.lastValue.map(String.init) ?? "nothing") after \(observer.calls) calls;"
                        + " the key's final value is \(final.map(String.init) ?? "its default (never written)")")
            }
        }
        if root.status.isDegraded { ledger.broken(.runWorks, "the context ends degraded: \(root.status.diagnostics)") }
    }

    private func checkValues(_ expected: [Acknowledged], _ promise: Promise, _ moment: String, progress: Progress) {
        for write in expected {
            for path in contextsSeeing(write.path) {
                let read = context(path).value(forKeyNamed: write.key)?.stressValue ?? -1
                if read != write.value {
                    ledger.broken(
                        promise,
                        "\(write.key) reads \(read) in \(path) \(moment); its last acknowledged write"
                            + " (in \(write.path)) was \(write.value)")
                }
            }
            progress.step()
        }
    }
}

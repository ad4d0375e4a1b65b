import Ensign
import EnsignControl
import Foundation

/// Runs a soak: starts the app, loads it for `seconds`, lets it settle, and checks the
/// accounting (see ``SoakVerdict``). Returns the exit status: 0 when every check held.
enum SoakDriver {
    static func run(seconds: Int, plan: SoakPlan = .fromEnvironment(), seed: UInt64, keepDirectory: Bool) throws
        -> Int32
    {
        let directory = try makeTemporaryDirectory()
        defer { if !keepDirectory { try? FileManager.default.removeItem(atPath: directory) } }
        let files = try SoakFiles.create(in: directory)
        let app = try SoakAppProcess(directory: directory)
        var appStopped = false
        defer { if !appStopped { _ = app.quit() } }
        say(
            "soak: \(seconds) s, seed \(seed): 2,000 flags in 4 files and an overlay, 500 observers, "
                + "\(SoakPlan.steadyStreamCount) steady and \(SoakPlan.churnedStreamCount) churned streams, "
                + "\(plan.writesPerSecond) control writes a second; app pid \(app.pid), files in \(directory)")

        let load = SoakLoad(plan: plan, files: files, seed: seed)
        let watcher = startThread("watcher") { load.runWatcher() }
        let workers = [
            startThread("writer") { load.runWriter() },
            startThread("rewriter") { load.runRewriter() },
            startThread("visitors") { load.runVisitors() },
        ]
        let samples = sampleWhileRunning(app: app, load: load, seconds: seconds)
        load.stop()
        for worker in workers { worker.wait() }

        let settled = settle(load)
        load.stopWatcher(after: try lastLoggedChange(load))
        watcher.wait()
        app.trimHeap()
        let trimmed = ProcessSample.read(pid: app.pid, elapsed: .zero, changes: 0, heapBytes: app.heapInUse())
        let report = try app.report()
        let status = app.quit()
        appStopped = true
        let restarted = try restartedValues(files)

        let verdict = SoakVerdict(
            model: load.model.withLock { $0 }, figures: load.figures.withLock { $0 },
            loadFailures: load.failures.withLock { $0 }, report: report, liveValues: settled,
            restartedValues: restarted, samples: samples, appStatus: status, seconds: seconds)
        for line in verdict.summary.dropLast() { say(line) }
        if let trimmed {
            say(
                "soak: after malloc_trim(0) at the end: resident \(megabytes(trimmed.residentBytes)), heap "
                    + "\(trimmed.heapBytes.map(megabytes) ?? "unknown") (what the allocator kept but did not use)")
        }
        if let last = verdict.summary.last { say(last) }
        if keepDirectory { say("soak: files kept in \(directory)") }
        return verdict.problems.isEmpty ? 0 : 1
    }

    /// Samples the app's memory, descriptors and threads until `seconds` have passed: every
    /// 10 s in short runs, every minute in runs of five minutes or more.
    static func sampleWhileRunning(app: SoakAppProcess, load: SoakLoad, seconds: Int) -> [ProcessSample] {
        let start = ContinuousClock.now
        let interval: Duration = seconds >= 300 ? .seconds(60) : .seconds(10)
        var samples: [ProcessSample] = []
        func sample() {
            let changes = load.model.withLock { $0.changes }
            let heap = app.heapInUse()
            guard
                let sample = ProcessSample.read(
                    pid: app.pid, elapsed: ContinuousClock.now - start, changes: changes, heapBytes: heap)
            else { return load.fail("the app's /proc entry is gone: did it crash?") }
            samples.append(sample)
            say(sample.line)
        }
        sample()
        var next = start + interval
        let end = start + .seconds(seconds)
        while next <= end {
            sleep(for: next - ContinuousClock.now) { load.failures.withLock { !$0.isEmpty } }
            if load.failures.withLock({ !$0.isEmpty }) { break }
            sample()
            next += interval
        }
        return samples
    }

    /// Waits until the app's live values agree with the model (the last rewrite's reload may
    /// still be on its way), at most 15 s, and returns the values it read last.
    static func settle(_ load: SoakLoad) -> [String: JSONValue] {
        let deadline = ContinuousClock.now + .seconds(15)
        var values: [String: JSONValue] = [:]
        repeat {
            do {
                let client = try load.connect()
                defer { client.close() }
                values = Dictionary(uniqueKeysWithValues: try client.list().map { ($0.key, $0.value) })
            } catch {
                load.fail("settle: \(error)")
                return values
            }
            let model = load.model.withLock { $0 }
            if SoakPlan.allKeys.allSatisfy({ values[$0] == .int(model.value(of: $0)) }) { break }
            Thread.sleep(forTimeInterval: 0.1)
        } while ContinuousClock.now < deadline
        return values
    }

    /// The app's last transaction that changed a key, which the watcher must receive.
    static func lastLoggedChange(_ load: SoakLoad) throws -> UInt64 {
        let client = try load.connect()
        defer { client.close() }
        return try client.log(limit: 200).last { !$0.changes.isEmpty }?.id ?? 0
    }

    /// What every key reads in a context started afresh from the files the app left.
    static func restartedValues(_ files: SoakFiles) throws -> [String: Int] {
        var configuration = AppContextConfiguration(
            definitionsDirectory: files.flagsDirectory, environment: SoakPlan.environment,
            preferencesFile: files.preferencesFile, overridesFile: files.overridesFile, label: "restarted")
        configuration.watchesFiles = false
        let context = try AppContext(configuration: configuration)
        return Dictionary(
            uniqueKeysWithValues: SoakPlan.allKeys.map { ($0, context[FlagKey<Int>($0, default: -1)]) })
    }

    static func makeTemporaryDirectory() throws -> String {
        let temporary = NSTemporaryDirectory().hasSuffix("/") ? NSTemporaryDirectory() : NSTemporaryDirectory() + "/"
        var template = Array((temporary + "ensign-soak-XXXXXX").utf8CString)
        guard let path = mkdtemp(&template) else { throw SoakError("mkdtemp failed: errno \(errno)") }
        return String(cString: path)
    }

    /// Runs `body` on a thread of its own; wait on the returned semaphore for its end.
    static func startThread(_ name: String, _ body: @escaping @Sendable () -> Void) -> DispatchSemaphore {
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            body()
            done.signal()
        }
        thread.name = "soak \(name)"
        thread.start()
        return done
    }
}

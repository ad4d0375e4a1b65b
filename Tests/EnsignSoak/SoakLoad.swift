import Ensign
import EnsignControl
import EnsignSupport
import EnsignTestSupport
import Foundation
import Synchronization

/// The driver's load on the app, one thread per kind: control writes at a steady rate, file
/// rewrites, a watcher that stays for the whole run, and clients that come and go.
///
/// Every acknowledged write goes into ``model`` in acknowledgement order; anything that
/// contradicts the model (a reply with another value, a failed call) is recorded in
/// ``failures``.
final class SoakLoad: Sendable {
    let plan: SoakPlan
    let files: SoakFiles
    let model = LockedState(SoakModel())
    let failures = LockedState<[String]>([])
    let figures = LockedState(SoakFigures())
    private let stopping = Atomic<Bool>(false)
    private let watcherStopping = Atomic<Bool>(false)
    /// The last transaction with changes the app logged before the watcher was told to stop,
    /// and the newest one the watcher has received.
    private let watcherTarget = Atomic<UInt64>(0)
    private let lastWatched = Atomic<UInt64>(0)
    private let seed: UInt64

    init(plan: SoakPlan, files: SoakFiles, seed: UInt64) {
        self.plan = plan
        self.files = files
        self.seed = seed
    }

    var isStopping: Bool { stopping.load(ordering: .acquiring) }
    func stop() { stopping.store(true, ordering: .releasing) }
    /// Ends the watcher once it has received transaction `last` (the app's last one with
    /// changes) and the stream is quiet, or 10 s after this call: a quiet moment alone is not
    /// proof that a loaded server has sent everything.
    func stopWatcher(after last: UInt64) {
        watcherTarget.store(last, ordering: .relaxed)
        watcherStopping.store(true, ordering: .releasing)
    }

    func fail(_ message: String) {
        failures.withLock { if $0.count < 20 { $0.append(message) } }
    }

    func connect() throws -> ControlClient {
        try ControlClient.connect(to: .socket(files.socketPath), timeout: .seconds(10))
    }

    /// `set`, `set --persist` and `reset` on random control keys, ``SoakPlan/writesPerSecond`` a second.
    func runWriter() {
        var random = SplitMix64(seed: seed)
        let keys = SoakPlan.controlKeyNames
        let client: ControlClient
        do { client = try connect() } catch { return fail("writer: cannot connect: \(error)") }
        defer { client.close() }
        let interval = Duration.seconds(1.0 / Double(plan.writesPerSecond))
        var deadline = ContinuousClock.now
        while !isStopping {
            deadline += interval
            let now = ContinuousClock.now
            if deadline > now { sleep(until: deadline) } else if now - deadline > .seconds(1) { deadline = now }
            let key = keys[Int(random.next(below: UInt64(keys.count)))]
            let draw = random.nextUnit()
            let started = ContinuousClock.now
            do {
                if draw < plan.resetShare {
                    try reset(key, on: client)
                } else {
                    try set(key, persist: draw < plan.resetShare + plan.persistedShare, on: client)
                }
            } catch {
                return fail("writer: \(key): \(error)")
            }
            let elapsed = ContinuousClock.now - started
            figures.withLock { $0.roundTrips.append(elapsed) }
        }
    }

    private func set(_ key: String, persist: Bool, on client: ControlClient) throws {
        let value = model.withLock { $0.takeNextValue() }
        let report = try client.set(key, to: .int(value), persist: persist)
        guard report.value == .int(value), report.isOverridden else {
            throw SoakError(
                "set \(value) was answered with \(report.value.jsonText) (overridden: \(report.isOverridden))")
        }
        model.withLock { $0.applySet(key, to: value, persist: persist) }
    }

    private func reset(_ key: String, on client: ControlClient) throws {
        let hadOverride = model.withLock { $0.overrides[key] != nil }
        let removed = try client.reset(key)
        guard removed == (hadOverride ? [key] : []) else {
            throw SoakError("reset removed \(removed), the model expected \(hadOverride ? [key] : [])")
        }
        model.withLock { $0.applyReset(key) }
    }

    /// Rewrites a file every ``SoakPlan/rewriteInterval``: the four definitions files in turn
    /// (their file keys change), then the overlay (cosmetic only); every
    /// ``SoakPlan/truncatedRewriteEvery``th rewrite truncates the file and writes it a moment later.
    func runRewriter() {
        var rewrite = 0
        while !isStopping {
            sleep(for: plan.rewriteInterval) { self.isStopping }
            guard !isStopping else { return }
            rewrite += 1
            let target = rewrite % (SoakPlan.fileCount + 1)
            let path: String
            let text: String
            if target < SoakPlan.fileCount {
                let round = model.withLock { $0.rounds[target] } + 1
                (path, text) = (
                    files.definitionsFile(target), SoakFiles.definitions(file: target, round: round, rewrite: rewrite)
                )
            } else {
                (path, text) = (files.overlayFile, SoakFiles.overlay(rewrite: rewrite))
            }
            let truncated = rewrite.isMultiple(of: plan.truncatedRewriteEvery)
            do {
                if truncated {
                    try SoakFiles.truncateThenWrite(path, with: text, pause: plan.truncationPause)
                } else {
                    try SoakFiles.replace(path, with: text)
                }
            } catch {
                return fail("rewriter: \(error)")
            }
            model.withLock { target < SoakPlan.fileCount ? $0.applyRewrite(file: target) : $0.applyCosmeticRewrite() }
            if truncated { figures.withLock { $0.truncatedRewrites += 1 } }
        }
    }

    /// One watch on every key for the whole run: the server's change stream, counted per key.
    func runWatcher() {
        let watch: ControlWatch
        do { watch = try connect().watch() } catch { return fail("watcher: \(error)") }
        defer { watch.close() }
        var stopDeadline: ContinuousClock.Instant?
        while true {
            let event: ControlEvent?
            do { event = try watch.next(timeout: .milliseconds(250)) } catch { return fail("watcher: \(error)") }
            switch event {
            case .change(_, let report)?:
                lastWatched.max(report.transaction, ordering: .relaxed)
                figures.withLock { figures in
                    for change in report.changes { figures.watchedChanges[change.key, default: 0] += 1 }
                }
            case .dropped(_, let count)?:
                figures.withLock { $0.watchDropped += count }
            case nil:
                guard watcherStopping.load(ordering: .acquiring) else { continue }
                let deadline = stopDeadline ?? ContinuousClock.now + .seconds(10)
                stopDeadline = deadline
                let caughtUp = lastWatched.load(ordering: .relaxed) >= watcherTarget.load(ordering: .relaxed)
                if caughtUp || ContinuousClock.now >= deadline { return }
            }
        }
    }

    /// A client a second: `status`, and every other time a short watch of a few keys.
    func runVisitors() {
        var random = SplitMix64(seed: seed &+ 1)
        var visit = 0
        while !isStopping {
            sleep(for: .seconds(1)) { self.isStopping }
            visit += 1
            do {
                let client = try connect()
                defer { client.close() }
                _ = try client.status()
                if visit.isMultiple(of: 2) {
                    let keys = SoakPlan.controlKeyNames
                    let watch = try client.watch(
                        keys: (0..<5).map { _ in keys[Int(random.next(below: UInt64(keys.count)))] })
                    defer { watch.close() }
                    let end = ContinuousClock.now + .milliseconds(500)
                    while ContinuousClock.now < end, try watch.next(timeout: end - ContinuousClock.now) != nil {}
                }
                figures.withLock { $0.visits += 1 }
            } catch {
                return fail("visitor \(visit): \(error)")
            }
        }
    }
}

/// Figures the load collects besides the model.
struct SoakFigures: Sendable {
    var roundTrips: [Duration] = []
    var truncatedRewrites = 0
    var visits = 0
    var watchedChanges: [String: Int] = [:]
    var watchDropped = 0
}

/// Sleeps until `deadline`.
func sleep(until deadline: ContinuousClock.Instant) {
    let remaining = deadline - ContinuousClock.now
    guard remaining > .zero else { return }
    Thread.sleep(forTimeInterval: remaining.seconds)
}

/// Sleeps for `duration` in short steps, returning early once `shouldStop` says so.
func sleep(for duration: Duration, unless shouldStop: () -> Bool) {
    let end = ContinuousClock.now + duration
    while ContinuousClock.now < end, !shouldStop() {
        sleep(until: min(end, ContinuousClock.now + .milliseconds(100)))
    }
}

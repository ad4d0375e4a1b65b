import CHeapStatistics
import Ensign
import EnsignControl
import EnsignSupport
import Foundation
import Synchronization

/// The long-running app under soak: a context over the soak files, watching them, with a
/// control server, 500 per-key observers, steady and churned `values(for:)` streams and an
/// observe-all observer, all tallying what they see.
///
/// It prints `ready` once serving, then answers its standard input: `heap` prints the heap
/// in use (`heap BYTES`), `trim` returns the allocator's free pages (`trimmed`), `report` prints a ``SoakAppReport`` as one JSON line, `quit` (or
/// the end of input) stops it.
enum SoakApp {
    static func run(directory: String) throws -> Never {
        let files = SoakFiles(directory: directory)
        var configuration = AppContextConfiguration(
            definitionsDirectory: files.flagsDirectory, environment: SoakPlan.environment,
            preferencesFile: files.preferencesFile, overridesFile: files.overridesFile, label: "soak")
        configuration.watchesFiles = true
        let context = try AppContext(configuration: configuration)
        var options = ControlServerOptions(appName: "soak", socketPath: files.socketPath)
        options.log = { _ in }  // clients come and go on purpose
        let server = try ControlServer.start(context: context, options: options)

        let report = SharedReport()
        var tokens: [ObservationToken] = []
        for name in SoakPlan.observedKeys {
            tokens.append(
                context.observe(FlagKey<Int>(name, default: -1), label: "soak \(name)") { value in
                    report.withLock { $0.observers[name, default: SoakAppReport.Tally()].record(value) }
                })
        }
        tokens.append(
            context.observeAll(label: "soak all") { batch in
                report.withLock {
                    $0.batches += 1
                    $0.batchedChanges += batch.changes.count
                }
            })
        let streams = startSteadyStreams(context, report)
        let churn = startChurnedStreams(context, report)

        say("ready")
        while let line = readLine() {
            if line == "heap" {
                say("heap \(ensign_heap_in_use())")
            } else if line == "trim" {
                ensign_heap_trim()
                say("trimmed")
            } else if line == "report" {
                let data = try JSONEncoder().encode(report.withLock { $0 })
                say(String(decoding: data, as: UTF8.self))
            } else {
                break
            }
        }
        churn.cancel()
        for stream in streams { stream.cancel() }
        for token in tokens { token.cancel() }
        server.stop()
        exit(0)
    }

    /// One stream per steady key, read for the whole run.
    static func startSteadyStreams(_ context: AppContext, _ report: SharedReport) -> [Task<Void, Never>] {
        SoakPlan.steadyStreamKeys.map { name in
            let values = context.values(for: FlagKey<Int>(name, default: -1))
            return Task.detached {
                for await value in values {
                    report.withLock { $0.steadyStreams[name, default: SoakAppReport.Tally()].record(value) }
                }
            }
        }
    }

    /// Streams cancelled and made anew every ``SoakPlan/churnInterval``, each read until cancelled.
    static func startChurnedStreams(_ context: AppContext, _ report: SharedReport) -> Task<Void, Never> {
        Task.detached {
            var running: [Task<Void, Never>] = []
            while !Task.isCancelled {
                for task in running { task.cancel() }
                running = SoakPlan.churnedStreamKeys.map { name in
                    let values = context.values(for: FlagKey<Int>(name, default: -1))
                    return Task.detached {
                        var tally = SoakAppReport.Tally()
                        for await value in values { tally.record(value) }
                        let backwards = tally.backwards
                        report.withLock {
                            $0.churnedStreamsEnded += 1
                            $0.churnedStreamsBackwards += backwards
                        }
                    }
                }
                try? await Task.sleep(for: SoakPlan.churnInterval)
            }
            for task in running { task.cancel() }
        }
    }
}

/// The app's report, shared by every observer and stream that adds to it.
final class SharedReport: Sendable {
    private let state = LockedState(SoakAppReport())

    func withLock<Result>(_ body: (inout SoakAppReport) -> Result) -> Result {
        state.withLock { body(&$0) }
    }
}

/// Writes `line` to standard output at once (the driver reads it line by line).
func say(_ line: String) {
    let bytes = Array((line + "\n").utf8)
    var written = 0
    while written < bytes.count {
        let result = bytes[written...].withUnsafeBytes { write(1, $0.baseAddress, $0.count) }
        guard result > 0 else { return }
        written += result
    }
}

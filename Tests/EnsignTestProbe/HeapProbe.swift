import CHeapStatistics
import Ensign

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Measures how much heap a workload leaves behind, in a process of its own so that no other
/// test's allocations blur the figure.
///
///   EnsignTestProbe heap SCRATCH_DIR SCENARIO COUNT
///
/// Each scenario warms up first (so bounded stores such as the change log are full), reads
/// the heap in use, runs COUNT more units of work, reads it again and prints
/// `retained BYTES per UNIT`: what each unit left behind, on average. Negative figures are
/// noise (something allocated before the first reading was freed).
enum HeapProbe {
    static func run(directory: String, scenario: String, count: Int) async -> Int32 {
        switch scenario {
        case "dropped-streams":
            await streams(count: count, consumed: false)
        case "cancelled-streams":
            await streams(count: count, consumed: true)
        case "children":
            children(count: count)
        case "scoped-keys":
            scopedKeys(count: count)
        case "concurrent":
            await concurrent(count: count, directory: directory)
        case "plain-writes":
            overrideWrites(count: count, directory: directory, persist: false, watching: false)
        case "persisted-writes":
            overrideWrites(count: count, directory: directory, persist: true, watching: false)
        case "persisted-writes-watched":
            overrideWrites(count: count, directory: directory, persist: true, watching: true)
        default:
            say("unknown scenario \(scenario)")
            return 2
        }
        return 0
    }

    /// Bytes the heap has handed out and not had back.
    static func heapInUse() -> Int { Int(ensign_heap_in_use()) }

    /// The heap in use once the watcher's reloads of the app's own writes are over: the same
    /// figure twice, 200 ms apart (at most 5 s). A fixed pause was too short on a loaded
    /// machine, where a reload still in flight held a whole snapshot (51 bytes a write).
    static func settledHeapInUse() -> Int {
        var last = heapInUse()
        for _ in 0..<25 {
            usleep(200_000)
            let now = heapInUse()
            if now == last { return now }
            last = now
        }
        return last
    }

    static func report(_ before: Int, _ after: Int, count: Int, unit: String) {
        say("heap before \(before) after \(after)")
        say("retained \((after - before) / max(1, count)) per \(unit)")
    }

    static let definitions: String = {
        var text = "version: 1\nflags:\n"
        for index in 0..<200 { text += "  k\(index): { type: int, default: 0 }\n" }
        return text
    }()

    /// `values(for:)` streams made and ended: dropped unread, or read once and cancelled.
    static func streams(count: Int, consumed: Bool) async {
        let context = try! AppContext(definitions: definitions)
        let key = FlagKey("k1", default: -1)
        func churn(_ rounds: Int) async {
            for _ in 0..<rounds {
                let stream = context.values(for: key)
                guard consumed else { continue }
                let task = Task {
                    for await _ in stream { break }
                }
                _ = await task.value
            }
        }
        await churn(2_000)
        let before = heapInUse()
        await churn(count)
        report(before, heapInUse(), count: count, unit: "stream")
        withExtendedLifetime(context) {}
    }

    /// Per-request child contexts, each made, read once and dropped, with no write in between.
    static func children(count: Int) {
        let context = try! AppContext(definitions: definitions)
        let key = FlagKey("k1", default: -1)
        func churn(_ rounds: Int) {
            for _ in 0..<rounds { _ = context.makeChild(label: "request")[key] }
        }
        churn(2_000)
        let before = heapInUse()
        churn(count)
        report(before, heapInUse(), count: count, unit: "child")
    }

    /// Keys made afresh for each read through a prefix scope, as a view that declares
    /// `@ContextValue(FlagKey("pageSize", default: 20))` makes one each time it is created.
    static func scopedKeys(count: Int) {
        let context = try! AppContext(definitions: "version: 1\nnamespace: app\nflags:\n  k1: { default: 0 }\n")
        let scope = context.scope("app")
        func churn(_ rounds: Int) {
            for _ in 0..<rounds { _ = scope[FlagKey("k1", default: -1)] }
        }
        churn(2_000)
        let before = heapInUse()
        churn(count)
        report(before, heapInUse(), count: count, unit: "read")
    }

    /// Overrides set in a context with an overrides file, saved to it (each write returns once
    /// it is on disk) or not, with the context watching its files or not: the soak's memory
    /// crept with persisted writes.
    static func overrideWrites(count: Int, directory: String, persist: Bool, watching: Bool) {
        let flags = directory + "/flags"
        let state = directory + "/state"
        mkdir(flags, 0o700)
        mkdir(state, 0o700)
        writeFile(flags + "/app.yaml", definitions)
        var configuration = AppContextConfiguration(
            definitionsDirectory: flags, environment: "test", overridesFile: state + "/overrides.yaml")
        configuration.watchesFiles = watching
        let context = try! AppContext(configuration: configuration)
        var value = 0
        func churn(_ rounds: Int) {
            for _ in 0..<rounds {
                value += 1
                try! context.setOverride(keyNamed: "k\(value % 200)", to: .int(value), persist: persist)
            }
        }
        churn(500)
        let before = settledHeapInUse()
        churn(count)
        report(before, settledHeapInUse(), count: count, unit: "write")
        withExtendedLifetime(context) {}
    }

    /// A long-running app's work, all at once: 500 per-key observers and 25 running streams;
    /// two writer tasks; a stream started and cancelled every 100 writes; a definitions file
    /// rewritten and reloaded every 1,000.
    static func concurrent(count: Int, directory: String) async {
        let flags = directory + "/flags"
        mkdir(flags, 0o700)
        writeFile(flags + "/app.yaml", definitions)
        var configuration = AppContextConfiguration(definitionsDirectory: flags, environment: "test")
        configuration.watchesFiles = false
        let context = try! AppContext(configuration: configuration)
        var tokens: [ObservationToken] = []
        for index in 0..<500 {
            tokens.append(context.observe(FlagKey("k\(index % 100)", default: 0), label: "o\(index)") { _ in })
        }
        let consumers = (0..<25).map { index in
            Task { for await _ in context.values(for: FlagKey("k\(index)", default: 0)) {} }
        }
        func phase(_ writes: Int) async {
            await withTaskGroup(of: Void.self) { group in
                for writer in 0..<2 {
                    group.addTask {
                        for index in 0..<writes / 2 {
                            try! context.setOverride(keyNamed: "k\((index * 7 + writer) % 200)", to: .int(index))
                        }
                    }
                }
                group.addTask {
                    for index in 0..<writes / 100 {
                        let stream = context.values(for: FlagKey("k\(index % 200)", default: 0))
                        let task = Task { for await _ in stream {} }
                        await Task.yield()
                        task.cancel()
                        _ = await task.value
                    }
                }
                group.addTask {
                    for index in 0..<writes / 1000 {
                        writeFile(flags + "/app.yaml", definitions + "# \(index)\n")
                        _ = context.reload()
                    }
                }
            }
        }
        await phase(5_000)
        // Two measured intervals: a leak grows the heap in both, while the few tens of
        // kilobytes that tasks and buffers in flight move it by rarely line up twice.
        let start = heapInUse()
        await phase(count)
        let middle = heapInUse()
        await phase(count)
        let end = heapInUse()
        say("heap \(start) \(middle) \(end)")
        say("retained \(min(middle - start, end - middle) / max(1, count)) per change")
        for consumer in consumers { consumer.cancel() }
        withExtendedLifetime(tokens) {}
    }

    static func writeFile(_ path: String, _ text: String) {
        let file = fopen(path, "w")!
        fputs(text, file)
        fclose(file)
    }
}

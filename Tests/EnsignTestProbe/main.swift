// A helper process for Ensign's tests: writes preferences the way an app does, so tests can
// run several writers at once and kill one at random points.
//
//   EnsignTestProbe write FLAGS_DIR PREFERENCES_FILE PREFIX COUNT
//       sets PREFIX.k0 … PREFIX.k(COUNT-1) to 0 … COUNT-1, flushing every few writes
//   EnsignTestProbe ack-loop FLAGS_DIR PREFERENCES_FILE KEY
//       sets KEY to the next value, forever, printing "ack N" after each value is on disk
//   EnsignTestProbe stress SCENARIO SEED SECONDS DIRECTORY
//       runs a concurrency stress scenario (see StressCommand) and checks the values after it
//   EnsignTestProbe stall
//       deadlocks two threads for certain, for the stress watchdog's own test
//   EnsignTestProbe heap SCRATCH_DIR SCENARIO COUNT
//       prints the heap a workload leaves behind (see HeapProbe)
//   EnsignTestProbe watcher-descriptors SCRATCH_DIR
//       counts inotify descriptors around a watching context (see WatcherDescriptorProbe)
import Ensign

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

func context(flags: String, preferences: String) -> AppContext {
    var configuration = AppContextConfiguration(
        definitionsDirectory: flags, environment: "test", preferencesFile: preferences)
    configuration.watchesFiles = false
    do {
        return try AppContext(configuration: configuration)
    } catch {
        var bytes = Array("probe: \(error)\n".utf8)
        _ = write(2, &bytes, bytes.count)
        exit(2)
    }
}

func say(_ line: String) {
    var bytes = Array((line + "\n").utf8)
    _ = write(1, &bytes, bytes.count)
}

let arguments = CommandLine.arguments
if arguments.count >= 2, ["stall", "stress"].contains(arguments[1]) { unblockFatalSignals() }
if arguments.count == 2, arguments[1] == "stall" { StallCommand.run() }
if arguments.count >= 2, arguments[1] == "stress" {
    do {
        exit(try StressCommand.run(Array(arguments.dropFirst(2))))
    } catch {
        say("probe: \(error)")
        exit(2)
    }
}
if arguments.count == 3, arguments[1] == "watcher-descriptors" {
    exit(WatcherDescriptorProbe.run(directory: arguments[2]))
}
if arguments.count == 5, arguments[1] == "heap" {
    exit(await HeapProbe.run(directory: arguments[2], scenario: arguments[3], count: Int(arguments[4]) ?? 0))
}
guard arguments.count >= 5 else {
    say("usage: EnsignTestProbe write|ack-loop FLAGS_DIR PREFERENCES_FILE … | stress … | heap …")
    exit(2)
}
let app = context(flags: arguments[2], preferences: arguments[3])
switch arguments[1] {
case "write":
    let prefix = arguments[4]
    let count = Int(arguments[5]) ?? 0
    for index in 0..<count {
        try app.setPreference(keyNamed: "\(prefix).k\(index)", to: .int(index))
        if index % 5 == 4 { try app.flush() }
    }
    try app.flush()
    say("done")
case "ack-loop":
    // Continue from what is on disk, so values only grow across killed runs.
    var value = app.value(forKeyNamed: arguments[4])?.intValue ?? 0
    while true {
        value += 1
        try app.setPreference(keyNamed: arguments[4], to: .int(value))
        try app.flush()
        say("ack \(value)")
    }
default:
    say("unknown command \(arguments[1])")
    exit(2)
}

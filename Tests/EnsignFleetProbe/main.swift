// A helper process for the fleet tests: one app instance that joins a fleet, so tests can run
// several app processes on one etcd prefix.
//
//   EnsignFleetProbe FLAGS_DIR ENDPOINT[,ENDPOINT…] PREFIX KEY
//       loads FLAGS_DIR, starts an etcd fleet source, prints "synced REVISION" once it has read
//       the prefix, then "seen VALUE_JSON MONOTONIC_NS" each time KEY's value changes (the
//       time from CLOCK_MONOTONIC, which every process on the machine shares); exits when its
//       standard input closes (so it never outlives the test that started it).
import Ensign
import EnsignFleet

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

func say(_ line: String) {
    var bytes = Array((line + "\n").utf8)
    _ = write(1, &bytes, bytes.count)  // one write per line: lines from two threads never interleave
}

func fail(_ message: String) -> Never {
    var bytes = Array("probe: \(message)\n".utf8)
    _ = write(2, &bytes, bytes.count)
    exit(2)
}

func monotonicNanoseconds() -> UInt64 {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
}

let arguments = CommandLine.arguments
guard arguments.count == 5 else { fail("usage: EnsignFleetProbe FLAGS_DIR ENDPOINTS PREFIX KEY") }
var configuration = AppContextConfiguration(definitionsDirectory: arguments[1], environment: "test")
configuration.watchesFiles = false
let context: AppContext
do {
    context = try AppContext(configuration: configuration)
} catch {
    fail("\(error)")
}
let key = arguments[4]
let token = context.observe(keysNamed: [key], label: "probe") { batch in
    let value = batch.changes.first?.newValue?.jsonText ?? "null"
    say("seen \(value) \(monotonicNanoseconds())")
}
let fleet: EtcdFleetSource
do {
    fleet = try EtcdFleetSource.start(
        context: context, endpoints: EtcdConfiguration.endpoints(fromList: arguments[2]), prefix: arguments[3])
} catch {
    fail("\(error)")
}
guard fleet.waitUntilSynced(timeout: .seconds(10)) else { fail("the fleet source did not sync") }
say("synced \(fleet.revision)")
var byte: UInt8 = 0
while read(0, &byte, 1) > 0 {}
fleet.stop()
token.cancel()

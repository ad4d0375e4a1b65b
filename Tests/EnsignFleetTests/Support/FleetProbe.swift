import Ensign
import EnsignHTTP
import EnsignSupport
import EnsignTestSupport
import Foundation
import Testing

@testable import EnsignFleet

/// An app instance in its own process (`EnsignFleetProbe`), joined to a fleet, reporting each
/// value of one key it observes with the CLOCK_MONOTONIC time it saw it.
final class FleetProbe: Sendable {
    /// One observation: the value's JSON text and when the observer ran.
    struct Sighting: Sendable {
        var value: String
        var nanoseconds: UInt64
    }

    private let process: Process
    private let input: Pipe
    private let reader: JoinableThread
    /// The revision it synced at (once it has), and what it has seen.
    let state = LockedCondition<(synced: Int64?, sightings: [Sighting], ended: Bool)>((nil, [], false))

    static let executable = BuiltExecutable.url(named: "EnsignFleetProbe")

    /// Starts a probe on `flags` (a definitions directory) watching `key`, and waits until it
    /// has read the prefix.
    init(flags: String, endpoints: [String], prefix: String, key: String) throws {
        process = Process()
        process.executableURL = Self.executable
        process.arguments = [flags, endpoints.joined(separator: ","), prefix, key]
        input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let state = self.state
        let handle = output.fileHandleForReading
        reader = JoinableThread(name: "probe-reader") {
            var pending = ""
            while true {
                let data = handle.availableData
                if data.isEmpty { break }
                pending += String(decoding: data, as: UTF8.self)
                while let newline = pending.firstIndex(of: "\n") {
                    let line = pending[..<newline].split(separator: " ")
                    pending.removeSubrange(...newline)
                    state.update { state in
                        if line.first == "synced", line.count == 2 { state.synced = Int64(line[1]) }
                        if line.first == "seen", line.count == 3, let time = UInt64(line[2]) {
                            state.sightings.append(Sighting(value: String(line[1]), nanoseconds: time))
                        }
                    }
                }
            }
            state.update { $0.ended = true }
        }
        guard state.wait(until: { $0.synced != nil || $0.ended }, timeout: .seconds(15)),
            state.withLock({ $0.synced }) != nil
        else {
            stop()
            throw EtcdTestError("the fleet probe did not sync")
        }
    }

    /// Waits until the probe has seen `count` values; returns whether it has.
    func waitForSightings(_ count: Int, timeout: Duration = .seconds(10)) -> Bool {
        state.wait(until: { $0.sightings.count >= count }, timeout: timeout)
    }

    var sightings: [Sighting] { state.withLock { $0.sightings } }

    /// Closes its standard input (it stops its source and exits) and waits for it; a probe
    /// that has not exited after 10 s is killed, so a stuck probe fails its test, not the run.
    func stop() {
        try? input.fileHandleForWriting.close()
        if !BuiltExecutable.waitForExitOrKill(process, timeout: .seconds(10)) {
            Issue.record("the fleet probe did not exit within 10 s of its input closing; it was killed")
        }
        // The reader ends at end of file; if something else still holds the probe's output
        // open, leave the thread rather than hang on it.
        if state.wait(until: { $0.ended }, timeout: .seconds(5)) { reader.join() }
    }

    /// CLOCK_MONOTONIC now, as the probes report it.
    static func monotonicNanoseconds() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
    }
}

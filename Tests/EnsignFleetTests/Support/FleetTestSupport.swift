import EnsignTestSupport
import Foundation
import Testing

@testable import Ensign
@testable import EnsignFleet

/// The definitions most fleet tests use: the list sample and an object flag.
let bankDefinitions = ListFixture.definitions(adding: "layout: { type: object, default: { columns: 1 } }")

/// A fresh, unique key prefix, so tests sharing a cluster never see each other's keys.
func uniquePrefix(_ label: String) -> String { "/ensign-tests/\(label)-\(UUID().uuidString.prefix(8))/" }

/// A source configuration with short timeouts and a quick backoff, as tests want.
func testConfiguration(_ endpoints: [String], prefix: String) -> EtcdConfiguration {
    var configuration = EtcdConfiguration(endpoints: endpoints, keyPrefix: prefix)
    configuration.dialTimeout = .milliseconds(300)
    configuration.requestTimeout = .seconds(2)
    configuration.reconnectBackoff = EtcdBackoff(initial: .milliseconds(20), maximum: .milliseconds(300))
    return configuration
}

/// How many TCP connections this process has open to `port` on loopback (from /proc).
func openConnections(toPort port: Int) -> Int {
    let inodes = Set(
        ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []).compactMap { name -> String? in
            guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(name)"),
                target.hasPrefix("socket:[")
            else { return nil }
            return String(target.dropFirst(8).dropLast())
        })
    // Read to the end: /proc files report size 0, and String(contentsOfFile:) stops at 4 KiB.
    let data = FileHandle(forReadingAtPath: "/proc/net/tcp")?.readDataToEndOfFile() ?? Data()
    let table = String(decoding: data, as: UTF8.self)
    let hex = String(port, radix: 16, uppercase: true)
    let hexPort = ":" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    return table.split(separator: "\n").dropFirst().filter { line in
        let fields = line.split(separator: " ")
        return fields.count > 9 && fields[2].hasSuffix(hexPort) && inodes.contains(String(fields[9]))
    }.count
}

/// The ids of this process's threads named `name` (from /proc), to check that stopped sources
/// leave none of their own threads behind.
///
/// By id rather than by name, so a test looks at the threads its own sources started.
func threadIDs(named name: String) -> Set<String> {
    let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
    return Set(
        tasks.filter {
            (try? String(contentsOfFile: "/proc/self/task/\($0)/comm", encoding: .utf8))?.trimmingCharacters(
                in: .whitespacesAndNewlines) == name
        })
}

/// Whether the thread with this id still runs in this process.
func threadIsAlive(_ id: String) -> Bool {
    FileManager.default.fileExists(atPath: "/proc/self/task/\(id)")
}

/// Percentile of sorted durations in milliseconds.
func percentile(_ sorted: [Double], _ fraction: Double) -> Double {
    guard !sorted.isEmpty else { return .nan }
    let index = min(sorted.count - 1, Int((Double(sorted.count) * fraction).rounded(.up)) - 1)
    return sorted[max(0, index)]
}

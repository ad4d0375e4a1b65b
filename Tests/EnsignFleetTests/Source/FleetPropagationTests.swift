import EnsignJSON
import EnsignTestSupport
import Foundation
import Testing

@testable import Ensign
@testable import EnsignFleet

extension EtcdIntegrationTests {
    @Suite("Fleet propagation")
    struct FleetPropagationTests {
        @Test("Two app processes on one prefix both see an `ensign fleet set`")
        func twoAppsSeeFleetSet() throws {
            try EtcdTestBed.run(prefix: "cli") { bed in
                let flags = try bed.definitionsDirectory()
                let probes = try bed.startProbes(2, flags: flags, watching: "list.pageSize")
                let result = try EnsignProcess.run(
                    ["fleet", "set", "list.pageSize", "75", "--flags", flags] + bed.commandLineOptions)
                #expect(result.status == 0, "\(result.errors)")
                for probe in probes {
                    #expect(probe.waitForSightings(1))
                    #expect(probe.sightings.map(\.value) == ["75"])
                }
            }
        }

        /// The fleet propagation benchmark: the time from a write's acknowledgement (the put
        /// returned) to the observer callback in each of two app processes, over many toggles,
        /// printed as p50/p99. `ENSIGN_FLEET_TOGGLES` sets the number of toggles (default 120).
        @Test("Fleet propagation latency: write acknowledgement → observer in two app processes, p50/p99")
        func propagationLatency() throws {
            let toggles = ProcessInfo.processInfo.environment["ENSIGN_FLEET_TOGGLES"].flatMap(Int.init) ?? 120
            try EtcdTestBed.run(prefix: "latency") { bed in
                let probes = try bed.startProbes(2, flags: try bed.definitionsDirectory(), watching: "list.showPending")
                var sent: [UInt64] = []
                var acknowledged: [UInt64] = []
                for toggle in 0..<toggles {
                    let value = toggle % 2 == 0 ? "true" : "false"  // the default is false: every write is a change
                    sent.append(FleetProbe.monotonicNanoseconds())
                    try bed.put("list.showPending", value)
                    acknowledged.append(FleetProbe.monotonicNanoseconds())
                    for probe in probes {
                        #expect(probe.waitForSightings(toggle + 1, timeout: .seconds(5)), "toggle \(toggle) arrives")
                    }
                }
                // An observer may run before the put's response is read: that counts as 0 ms.
                func milliseconds(from start: [UInt64]) -> [Double] {
                    probes.flatMap { probe in
                        zip(probe.sightings, start).map { sighting, start in
                            Double(Int64(bitPattern: sighting.nanoseconds &- start)) / 1e6
                        }
                    }.map { max(0, $0) }.sorted()
                }
                let fromAck = milliseconds(from: acknowledged)
                let fromSend = milliseconds(from: sent)
                #expect(fromAck.count == toggles * 2, "every toggle reached both apps")
                #expect(probes.allSatisfy { $0.sightings.last?.value == (toggles % 2 == 1 ? "true" : "false") })
                let report = String(
                    format: "fleet propagation, %d toggles × 2 app processes: acknowledgement → observer p50 %.2f ms,"
                        + " p99 %.2f ms, max %.2f ms; put sent → observer p50 %.2f ms, p99 %.2f ms",
                    toggles, percentile(fromAck, 0.5), percentile(fromAck, 0.99), fromAck.last ?? .nan,
                    percentile(fromSend, 0.5), percentile(fromSend, 0.99))
                print(report)
                // The target is p99 ≤ 250 ms on loopback; the bound here is generous, for loaded CI machines.
                #expect(percentile(fromAck, 0.99) < 1000, "\(report)")
            }
        }
    }
}

extension EtcdIntegrationTests {
    @Suite("ensign fleet")
    struct FleetCommandTests {
        @Test("set checks the value against the definitions first and writes nothing when it does not fit")
        func setValidates() throws {
            try EtcdTestBed.run(prefix: "cli-set") { bed in
                let common = ["--flags", try bed.definitionsDirectory()] + bed.commandLineOptions
                let tooLarge = try EnsignProcess.run(["fleet", "set", "list.pageSize", "500"] + common)
                #expect(tooLarge.status == 1)
                #expect(
                    tooLarge.errors.contains(
                        "'list.pageSize' value 500 is above the maximum of 100; nothing was written"))
                let undefined = try EnsignProcess.run(["fleet", "set", "list.pageSiz", "50"] + common)
                #expect(undefined.status == 1 && undefined.errors.contains("did you mean 'list.pageSize'?"))
                #expect(try bed.client.rangeOfPrefix().keyValues.isEmpty)

                let good = try EnsignProcess.run(["fleet", "set", "list.sortOrder", "name", "--json"] + common)
                #expect(good.status == 0, "\(good.errors)")
                let written = try JSONValue(jsonText: good.output)
                #expect(written["value"] == "name")
                #expect(try bed.client.get(bed.prefix + "list.sortOrder").keyValue?.valueText == "\"name\"")
            }
        }

        @Test("set --if-revision writes only at the key's revision and otherwise shows the current one")
        func compareAndSwap() throws {
            try EtcdTestBed.run(prefix: "cli-swap") { bed in
                let common = bed.commandLineOptions
                let created = try EnsignProcess.run(
                    ["fleet", "set", "list.pageSize", "30", "--if-revision", "0", "--json"] + common)
                #expect(created.status == 0, "\(created.errors)")
                let revision = try #require(try JSONValue(jsonText: created.output)["revision"]?.stringValue)
                let conflict = try EnsignProcess.run(
                    ["fleet", "set", "list.pageSize", "40", "--if-revision", "0"] + common)
                #expect(conflict.status == 1)
                #expect(conflict.errors.contains("its revision is \(revision) (value 30), not 0"))
                let swapped = try EnsignProcess.run(
                    ["fleet", "set", "list.pageSize", "40", "--if-revision", revision] + common)
                #expect(swapped.status == 0, "\(swapped.errors)")
                let stale = try EnsignProcess.run(
                    ["fleet", "reset", "list.pageSize", "--if-revision", revision] + common)
                #expect(stale.status == 1 && stale.errors.contains("was not reset"))

                let got = try EnsignProcess.run(["fleet", "get", "list.pageSize", "--json"] + common)
                let json = try JSONValue(jsonText: got.output)
                #expect(json["value"] == 40 && json["etcdKey"] == .string(bed.prefix + "list.pageSize"))
                let listed = try EnsignProcess.run(["fleet", "list", "--json"] + common)
                #expect(try JSONValue(jsonText: listed.output)["keys"]?.arrayValue?.count == 1)
                let reset = try EnsignProcess.run(["fleet", "reset", "list.pageSize"] + common)
                #expect(reset.status == 0 && reset.output.contains("fleet value removed"))
                let missing = try EnsignProcess.run(["fleet", "get", "list.pageSize"] + common)
                #expect(missing.status == 1 && missing.errors.contains("has no fleet value"))
            }
        }

        @Test("list --flags shows which stored values the apps refuse")
        func listShowsRefusals() throws {
            try EtcdTestBed.run(prefix: "cli-list") { bed in
                try bed.put("list.pageSize", "500")
                try bed.put("list.showPending", "true")
                let listed = try EnsignProcess.run(
                    ["fleet", "list", "--flags", try bed.definitionsDirectory()] + bed.commandLineOptions)
                #expect(listed.status == 0)
                let lines = listed.output.split(separator: "\n")
                #expect(
                    lines.first { $0.hasPrefix("list.pageSize") }?.contains(
                        "refused: value 500 is above the maximum of 100") == true)
                #expect(lines.first { $0.hasPrefix("list.showPending") }?.hasSuffix("ok") == true)
            }
        }
    }
}

@Suite("ensign fleet usage")
struct FleetCommandUsageTests {
    @Test("Missing endpoints, prefix or action are usage errors (exit 2)")
    func usage() throws {
        #expect(try EnsignProcess.run(["fleet", "list", "--prefix", "/p/"]).status == 2)
        #expect(try EnsignProcess.run(["fleet", "list", "--etcd", "http://127.0.0.1:1"]).status == 2)
        #expect(try EnsignProcess.run(["fleet", "--etcd", "http://127.0.0.1:1", "--prefix", "/p/"]).status == 2)
        let typo = try EnsignProcess.run(["fleet", "lst", "--etcd", "http://127.0.0.1:1", "--prefix", "/p/"])
        #expect(typo.status == 2 && typo.errors.contains("did you mean 'list'?"))
        #expect(
            try EnsignProcess.run(["fleet", "set", "k", "--etcd", "http://127.0.0.1:1", "--prefix", "/p/"]).status == 2)
    }

    @Test("Unreachable endpoints, http or https, fail with exit 1")
    func endpoints() throws {
        let port = try Loopback.freePort()
        let https = try EnsignProcess.run(["fleet", "list", "--etcd", "https://127.0.0.1:\(port)", "--prefix", "/p/"])
        #expect(https.status == 1 && https.errors.contains("etcd is unreachable"), "\(https.errors)")
        let down = try EnsignProcess.run(["fleet", "list", "--etcd", "http://127.0.0.1:\(port)", "--prefix", "/p/"])
        #expect(down.status == 1 && down.errors.contains("etcd is unreachable"))
    }
}

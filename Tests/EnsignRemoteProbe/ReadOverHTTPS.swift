import Ensign
import EnsignRemote
import EnsignRemoteURLSession

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The probe's `read-https` mode: the exit status, after printing what it saw.
func readOverHTTPS(baseURL: String) -> Int32 {
    let streams = OFREPRemoteSource.urlSessionFollowsEventStreams
    func say(_ line: String) {
        print(line)
        fflush(nil)  // the test waits for each line
    }
    do {
        let context = try AppContext(
            definitions: """
                version: 1
                namespace: list
                flags:
                  pageSize: { type: int, default: 10, minimum: 5, maximum: 100 }
                """)
        var configuration = OFREPRemoteConfiguration(baseURL: baseURL, evaluationContext: ["targetingKey": "probe"])
        // The event stream alone must bring the change; URLSession on Linux polls instead
        // (it cannot cancel a stream safely there), so the poll is short when it can't stream.
        configuration.pollInterval = streams ? nil : .milliseconds(100)
        configuration.requestTimeout = .seconds(5)
        configuration.initialBackoff = .milliseconds(50)
        configuration.maximumBackoff = .milliseconds(200)
        let source = try OFREPRemoteSource(configuration: configuration, sessionConfiguration: .ephemeral)
        context.attach(source)
        defer { source.stop() }
        let key = FlagKey<Int>("list.pageSize", default: 10)
        guard streams ? source.waitUntilStreaming(timeout: .seconds(20)) : source.waitUntilSynced(timeout: .seconds(20))
        else {
            say("FAILED no \(streams ? "event stream" : "answer"): \(source.lastError ?? "no error")")
            return 1
        }
        let first = context[key]
        say("\(streams ? "STREAMING" : "POLLING") list.pageSize=\(first)")
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline {
            if context[key] != first {
                say("CHANGED list.pageSize=\(context[key])")
                return 0
            }
            usleep(10_000)
        }
        say("FAILED no change arrived: \(source.lastError ?? "no error")")
        return 1
    } catch {
        say("FAILED \(error)")
        return 1
    }
}

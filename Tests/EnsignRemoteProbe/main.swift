import Ensign
import EnsignOFREP
import EnsignRemote

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// `EnsignRemoteProbe write-cache PATH`: replaces the remote cache at PATH with evaluations
// 1, 2, 3, … as fast as it can, for ever, so that a test can kill it with SIGKILL in the middle
// of a write and check that the file holds one whole evaluation or the other.
//
// `EnsignRemoteProbe read-https URL`: follows the OFREP server at URL over URLSession and
// prints `STREAMING list.pageSize=V` once its event stream is up (`POLLING` where URLSession
// polls), then `CHANGED
// list.pageSize=V` when the value changes (or `FAILED reason` and exit 1). The test runs it in
// a mount namespace of its own whose system CA bundle trusts the test's certificate.
let arguments = CommandLine.arguments
if arguments.count == 3, arguments[1] == "read-https" {
    exit(readOverHTTPS(baseURL: arguments[2]))
}
guard arguments.count == 3, arguments[1] == "write-cache" else {
    print("usage: EnsignRemoteProbe write-cache PATH | read-https URL")
    exit(2)
}
let cache = EvaluationCacheFile(
    path: arguments[2], cacheKey: CachedEvaluation.cacheKey(baseURL: "http://probe:1", context: ["targetingKey": "k"]),
    timeToLive: .seconds(3600))
// A few hundred flags, so a write takes several system calls.
let padding = JSONValue.string(String(repeating: "x", count: 200))
var generation = 0
while true {
    generation += 1
    var flags = [
        OFREPFlagEvaluation.success(
            OFREPEvaluationSuccess(key: "generation", value: .int(generation), reason: "STATIC"))
    ]
    for index in 0..<300 {
        flags.append(.success(OFREPEvaluationSuccess(key: "padding.\(index)", value: padding, reason: "STATIC")))
    }
    do {
        try cache.store(
            CachedEvaluation(
                response: OFREPBulkEvaluationResponse(flags: flags), etag: "\"\(generation)\"", writtenAt: .now()))
    } catch {
        print("write failed: \(error)")
        exit(1)
    }
}

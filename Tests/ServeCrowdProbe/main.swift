// A crowd in front of `ensign serve`, in a process of its own: thousands of event streams and
// slow-header clients, for the scale test. Foundation's Process, which the test process uses
// to start other processes, overruns a buffer while it lists /proc/self/fd when more than about
// a thousand descriptors are open (seen under the address sanitizer), so the crowd's sockets are
// never the test process's.
//
//   ServeCrowdProbe PORT STREAMS SLOW EVALUATIONS
//
// Prints one line per step (`streams-open N`, `slow-open N`, `evaluations-answered N`, `ready`),
// then waits for a line on standard input (the change has been made), and prints
// `streams-heard N` and `slow-cut N` before it exits.

import LoopbackLoad

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

func say(_ line: String) {
    print(line)
    fflush(nil)
}

let arguments = CommandLine.arguments.dropFirst().compactMap { Int($0) }
guard arguments.count == 4 else {
    say("usage: ServeCrowdProbe PORT STREAMS SLOW EVALUATIONS")
    exit(2)
}
let (port, streamCount, slowCount, evaluationCount) = (arguments[0], arguments[1], arguments[2], arguments[3])
LoopbackCrowd.raiseDescriptorLimit()

let streams = LoopbackCrowd()
try streams.connect(streamCount, port: port, sending: "GET /ofrep/v1/events HTTP/1.1\r\nHost: t\r\n\r\n")
say("streams-open \(try streams.pump(timeout: .seconds(120)) { received, _ in received.containsText(": connected") })")

// Slow-header clients: a request line, then a header byte at a time, never finishing.
let slow = LoopbackCrowd()
try slow.connect(
    slowCount, port: port, sending: "POST /ofrep/v1/evaluate/flags/banner HTTP/1.1\r\nHost: t\r\nX-Slow: ")
try slow.sendToAll(Array("a".utf8))
say("slow-open \(slow.sockets.count - slow.closedCount)")

var answered = 0
let body = #"{"context":{"country":"FR"}}"#
for index in 0..<evaluationCount {
    let client = LoopbackCrowd()
    try client.connect(
        1, port: port,
        sending: "POST /ofrep/v1/evaluate/flags/banner HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n"
            + "Content-Length: \(body.utf8.count)\r\n\r\n\(body)")
    answered += try client.pump(timeout: .seconds(60)) { received, _ in
        received.containsText("HTTP/1.1 200") && received.containsText(#""value":true"#)
    }
    if index % 10 == 0 { try slow.sendToAll(Array("a".utf8)) }
}
say("evaluations-answered \(answered)")

say("ready")
_ = readLine()
say(
    "streams-heard \(try streams.pump(timeout: .seconds(120)) { received, _ in received.containsText("refetchEvaluation") })"
)
// The slow clients are cut after the server's header time-out, not waited for.
let cut = try slow.pump(
    timeout: .seconds(120), everyRound: { try slow.sendToAll(Array("a".utf8), atMostEvery: .seconds(1)) },
    until: { _, closed in closed })
say("slow-cut \(cut)")

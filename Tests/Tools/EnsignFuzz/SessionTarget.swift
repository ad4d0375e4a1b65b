import Ensign
import EnsignControl

/// The `session` target: a whole control connection, as the server frames and answers it,
/// against a real context. Where `control` fuzzes one request's parser, this drives the
/// server's line framing, its flow control and its request handler through
/// ``DetachedServerSession`` (the server's own code, without a socket).
///
/// Input format: the bytes the client sends, in which three byte values that never occur in
/// UTF-8 steer the client instead of being sent:
///
/// - `0xFF` ends a read, and the client then collects every reply before it sends more;
/// - `0xFE` ends a read, and the client does not collect (replies pile up, and the server stops
///   reading at its high-water mark until the client collects, as for a client that does not read);
/// - `0xFD n` repeats the byte before it `(n + 1) × 1024` more times (over-long lines from a
///   short input; at most 1 MiB in all).
///
/// A read longer than the server's read size arrives as several reads. At the end the client
/// closes its sending side and collects everything.
///
/// Checked after each session, as the protocol reference promises: every line the server
/// sends is a reply or an event the client can read; every request line (without its LF and
/// one CR; blank lines excepted; a last line without LF as it is) gets exactly one reply, in
/// order, with its id; `TOO_LARGE` answers exactly the lines over 64 KiB, and only after such
/// a line may the server stop answering; events come only for the watch in force; and
/// afterwards every key of the context still reads.
enum SessionTarget {
    /// The most bytes the repeat marker may add to one input.
    private static let maximumExpansion = 1 << 20

    /// What the client does: send one read's bytes, then collect the replies or not.
    private struct Read {
        var bytes: [UInt8] = []
        var collects = true
    }

    /// Runs one input.
    static func run(_ input: [UInt8]) {
        let (reads, stream) = clientReads(input)
        let context = try! AppContext(
            definitions: FuzzFixtures.definitions, FuzzFixtures.preferences, environment: "development")
        var options = ControlServerOptions(appName: "fuzz")
        options.log = { _ in }
        guard let session = try? DetachedServerSession(context: context, options: options) else { return }
        var output: [UInt8] = []
        sending: for read in reads {
            var offset = 0
            while offset < read.bytes.count {
                // The server reads only while its output is below the high-water mark.
                while !session.acceptsInput, !session.isReadClosed { output += session.takeOutput() }
                if session.isReadClosed { break sending }
                let end = min(read.bytes.count, offset + DetachedServerSession.maximumReadSize)
                _ = session.receive(read.bytes[offset..<end])
                offset = end
            }
            if read.collects { output += session.takeOutput() }
        }
        while !session.acceptsInput, !session.isReadClosed { output += session.takeOutput() }
        _ = session.receiveEnd()
        while true {
            let more = session.takeOutput()
            if more.isEmpty { break }
            output += more
        }
        session.close()
        check(output, against: SessionOracle(stream: stream), readClosed: session.isReadClosed)
        for key in context.definitions.keys {
            _ = context.details(forKeyNamed: key)
            _ = context.explain(keyNamed: key)
        }
        _ = context.status
        _ = context.changeLog
    }

    /// The client's reads, and the byte stream they send (markers removed, repeats expanded).
    private static func clientReads(_ input: [UInt8]) -> (reads: [Read], stream: [UInt8]) {
        var reads: [Read] = []
        var current = Read()
        var stream: [UInt8] = []
        var expansion = 0
        var index = 0
        while index < input.count {
            let byte = input[index]
            index += 1
            switch byte {
            case 0xFF, 0xFE:
                current.collects = byte == 0xFF
                reads.append(current)
                current = Read()
            case 0xFD:
                guard index < input.count else { break }
                let count = (Int(input[index]) + 1) * 1024
                index += 1
                guard let last = stream.last, expansion + count <= maximumExpansion else { break }
                expansion += count
                current.bytes += repeatElement(last, count: count)
                stream += repeatElement(last, count: count)
            default:
                current.bytes.append(byte)
                stream.append(byte)
            }
        }
        reads.append(current)
        return (reads, stream)
    }

    /// Checks what the server sent against the requests in `oracle`.
    private static func check(_ output: [UInt8], against oracle: SessionOracle, readClosed: Bool) {
        fuzzCheck(output.isEmpty || output.last == 0x0A, "the server's output does not end with a newline")
        var replies = 0
        var activeWatch: ControlRequestID?
        for line in output.split(separator: 0x0A) {
            let message: ControlMessage
            do {
                message = try ControlMessage.parse(line: line)
            } catch {
                fatalError("fuzz invariant broken: the client cannot read '\(String(decoding: line, as: UTF8.self))'")
            }
            switch message {
            case .event(.change(let watch, _)), .event(.dropped(let watch, _)):
                fuzzCheck(
                    activeWatch == watch,
                    "an event for watch \(watch), but the watch in force is \(activeWatch.map { "\($0)" } ?? "none")")
            case .reply(let reply):
                fuzzCheck(
                    replies < oracle.requests.count, "more replies than the \(oracle.requests.count) request lines")
                let request = oracle.requests[replies]
                fuzzCheck(
                    reply.id == request.id,
                    "reply \(replies) has id \(reply.id), its request \(request.id): \(reply.outcome)")
                let isTooLarge = reply.errorCode == .tooLarge
                fuzzCheck(
                    isTooLarge == request.isOverLong,
                    "request \(replies) (\(request.length) bytes) got \(isTooLarge ? "" : "no ")TOO_LARGE")
                if case .success = reply.outcome {
                    switch request.operation {
                    case .watch?: activeWatch = request.id
                    case .stop?: activeWatch = nil
                    default: break
                    }
                }
                replies += 1
            }
        }
        guard replies < oracle.requests.count else { return }
        // Fewer replies than requests: only a connection closed for an over-long line stops early.
        let stoppedAfterOverLongLine = replies > 0 && oracle.requests[replies - 1].isOverLong && readClosed
        fuzzCheck(stoppedAfterOverLongLine, "\(oracle.requests.count) request lines got \(replies) replies")
    }
}

extension ControlReply {
    /// The error's code, when the reply is an error.
    fileprivate var errorCode: ControlErrorCode? {
        if case .failure(let error) = outcome { return error.code }
        return nil
    }
}

/// The requests a byte stream holds, as the protocol reference defines its framing, written
/// independently of the server's code: lines end at LF, lose one CR before it, and are
/// skipped when empty or only spaces and tabs; a last line without LF is a request unless it
/// is only whitespace.
struct SessionOracle {
    /// One request line and what the server must answer.
    struct Request {
        /// The id its reply carries (none when the line cannot be read as a request).
        var id: ControlRequestID
        /// The operation, when the line is a valid request.
        var operation: ControlOperation?
        /// The line's length, as the limit counts it.
        var length: Int
        /// Whether the line is longer than the protocol allows.
        var isOverLong: Bool { length > ControlProtocol.maximumLineLength }
    }

    /// The request lines, in order.
    var requests: [Request] = []

    init(stream: [UInt8]) {
        var lines = stream.split(separator: 0x0A, omittingEmptySubsequences: false)
        let last = lines.removeLast()
        // A blank line is skipped, unless it is over-long: the server answers TOO_LARGE before
        // it could know the line holds nothing but blanks (a fuzzer found this).
        for var line in lines {
            if line.last == 0x0D { line = line.dropLast() }
            if line.count <= ControlProtocol.maximumLineLength, line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) {
                continue
            }
            requests.append(Self.request(line))
        }
        if last.count > ControlProtocol.maximumLineLength
            || !last.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D })
        {
            requests.append(Self.request(last))
        }
    }

    private static func request(_ line: ArraySlice<UInt8>) -> Request {
        do {
            let request = try ControlRequest.parse(line: line)
            return Request(id: request.id, operation: request.operation, length: line.count)
        } catch {
            return Request(id: error.id, operation: nil, length: line.count)
        }
    }
}

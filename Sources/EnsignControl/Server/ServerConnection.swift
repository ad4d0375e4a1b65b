import Ensign
import EnsignSupport

/// One client connection's state. Owned by the server thread alone: nothing here is shared.
final class ServerConnection {
    let descriptor: Int32
    let peer: PeerCredentials?
    /// Bytes received, from `inputStart` on, that do not yet form a complete line (or wait
    /// for output to drain).
    private(set) var input: [UInt8] = []
    private var inputStart = 0
    /// Bytes waiting to be sent, from `outputOffset` on.
    private(set) var output: [UInt8] = []
    private var outputOffset = 0
    var lastActivity: ContinuousClock.Instant
    /// This connection's watch, while it watches.
    var watch: WatchOutbox?
    /// The connection is not read any more, and no more of its input is answered (an
    /// over-long line, a refusal, the end of a session).
    var isReadClosed = false
    /// The client closed its sending side: nothing more is read, but the lines received are
    /// still answered as the output drains, the last one even without a newline.
    var hasInputEnded = false
    /// Whether the server still reads from the socket.
    var isReadable: Bool { !isReadClosed && !hasInputEnded }
    /// Input received waits to be answered (lines, or the end of input) because the output
    /// was full: the server answers it as the output drains.
    var isHoldingInput = false
    /// Set when the connection is to be closed once its output is sent, or at this time.
    var closeDeadline: ContinuousClock.Instant?
    /// The socket failed or the connection is finished; the server closes it.
    var isFinished = false

    init(descriptor: Int32, peer: PeerCredentials?, now: ContinuousClock.Instant) {
        self.descriptor = descriptor
        self.peer = peer
        self.lastActivity = now
    }

    /// Bytes not yet sent.
    var pendingOutput: Int { output.count - outputOffset }

    /// Queues one JSON line.
    func send(_ message: JSONValue) {
        output.append(contentsOf: message.jsonText.utf8)
        output.append(0x0A)
    }

    /// Closes the connection after the queued output is sent, or after `grace` at the latest.
    func close(after grace: Duration, now: ContinuousClock.Instant) {
        isReadClosed = true
        if closeDeadline == nil { closeDeadline = now + grace }
    }

    /// Sends as much queued output as the socket takes without blocking.
    func flush() {
        while pendingOutput > 0 {
            let sent: Int?
            do {
                sent = try output.withUnsafeBytes { (buffer) throws(SystemCallError) in
                    try UnixSocket.send(descriptor, UnsafeRawBufferPointer(rebasing: buffer[outputOffset...]))
                }
            } catch {
                // The peer left (EPIPE, ECONNRESET): nothing more can be sent.
                isFinished = true
                return
            }
            guard let sent else { break }
            outputOffset += sent
        }
        if outputOffset == output.count {
            output.removeAll(keepingCapacity: output.count <= 1 << 16)
            outputOffset = 0
        } else if outputOffset > 1 << 16 {
            output.removeFirst(outputOffset)
            outputOffset = 0
        }
    }

    /// Takes the queued output as if the socket had accepted all of it: a
    /// ``DetachedServerSession`` hands it to its caller instead of sending it.
    func takeOutput() -> [UInt8] {
        let taken = Array(output[outputOffset...])
        output.removeAll(keepingCapacity: true)
        outputOffset = 0
        return taken
    }

    /// Appends received bytes.
    func receive(_ bytes: UnsafeRawBufferPointer) {
        if inputStart > 0, inputStart == input.count {
            input.removeAll(keepingCapacity: true)
            inputStart = 0
        } else if inputStart > 1 << 16 {
            input.removeFirst(inputStart)
            inputStart = 0
        }
        input.append(contentsOf: bytes)
    }

    /// Bytes received and not yet taken as lines.
    var unreadInput: ArraySlice<UInt8> { input[inputStart...] }

    /// Takes the next complete line from the input (without its newline or a trailing
    /// carriage return); `nil` when there is none.
    func nextLine() -> ArraySlice<UInt8>? {
        guard let newline = input[inputStart...].firstIndex(of: 0x0A) else { return nil }
        var end = newline
        if end > inputStart, input[end - 1] == 0x0D { end -= 1 }
        let line = input[inputStart..<end]
        inputStart = newline + 1
        return line
    }

    /// Takes whatever input is left, complete line or not.
    func takeRemainingInput() -> ArraySlice<UInt8> {
        let rest = input[inputStart...]
        inputStart = input.count
        return rest
    }
}

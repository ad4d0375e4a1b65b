import EnsignSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

@Suite("WakeSignal and Cancellation")
struct WakeSignalTests {
    /// Bytes waiting in the pipe, read without draining the signal's flag.
    private static func bytesInPipe(_ signal: WakeSignal) -> Int {
        var count: Int32 = 0
        _ = ioctl(signal.descriptor, UInt(FIONREAD), &count)
        return Int(count)
    }

    @Test("A burst of signals puts one byte in the pipe; draining clears it and the next signal writes again")
    func burstCoalesces() throws {
        let signal = try WakeSignal()
        for _ in 0..<1_000 { signal.signal() }
        #expect(Self.bytesInPipe(signal) == 1)
        #expect(signal.isSignalled)
        signal.drain()
        #expect(Self.bytesInPipe(signal) == 0)
        #expect(!signal.isSignalled)
        signal.signal()
        #expect(Self.bytesInPipe(signal) == 1)
    }

    @Test("A wait ends on its own signal, on the other one, or at its deadline, and drains nothing")
    func waitEnds() throws {
        let own = try WakeSignal()
        let other = try WakeSignal()
        #expect(!own.wait(until: .now, or: other), "nothing signalled: the deadline ends it")
        other.signal()
        #expect(own.wait(until: nil, or: other))
        #expect(other.isSignalled, "the wait drains nothing")
        other.drain()
        let waiter = JoinableThread(name: "test-wake") { own.signal() }
        #expect(own.wait(until: nil))
        waiter.join()
    }

    @Test("After close, signals do nothing and the descriptors are gone")
    func closeIsFinal() throws {
        let signal = try WakeSignal()
        let descriptor = signal.descriptor
        signal.close()
        signal.signal()
        signal.close()
        #expect(fcntl(descriptor, F_GETFD) == -1)
    }

    @Test("A cancellation from another thread ends a long sleep, and stays cancelled")
    func cancellationEndsSleep() {
        let cancellation = Cancellation()
        #expect(!cancellation.isCancelled)
        let canceller = JoinableThread(name: "test-cancel") { cancellation.cancel() }
        #expect(cancellation.sleep(for: .seconds(3_600)))
        canceller.join()
        #expect(cancellation.isCancelled)
        #expect(cancellation.sleep(for: .seconds(3_600)), "a later sleep ends at once")
    }

    @Test("A sleep ends early on a refresh signal, which it drains; a cancellation wins over a signal")
    func sleepEndsOnRefresh() throws {
        let cancellation = Cancellation()
        let refresh = try WakeSignal()
        #expect(cancellation.sleep(for: .milliseconds(1), orUntil: refresh) == .elapsed)
        refresh.signal()
        #expect(cancellation.sleep(for: .seconds(3_600), orUntil: refresh) == .signalled)
        #expect(!refresh.isSignalled)
        refresh.signal()
        cancellation.cancel()
        #expect(cancellation.sleep(for: .seconds(3_600), orUntil: refresh) == .cancelled)
    }
}

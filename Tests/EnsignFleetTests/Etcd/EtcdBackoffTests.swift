import Testing

@testable import EnsignFleet

@Suite("Reconnection backoff")
struct BackoffTests {
    @Test("Delays double up to the maximum and jitter only shortens them")
    func bounds() {
        let backoff = EtcdBackoff(initial: .milliseconds(50), maximum: .seconds(2), jitter: 0.5)
        for failures in 1...12 {
            let nominal = min(Duration.milliseconds(50) * (1 << min(failures - 1, 20)), .seconds(2))
            for _ in 0..<50 {
                let delay = backoff.delay(afterFailures: failures)
                #expect(delay <= nominal && delay >= nominal / 2, "after \(failures) failures: \(delay)")
            }
        }
    }

    @Test("Jitter spreads the delays of a fleet reconnecting at once")
    func jitterSpreads() {
        let backoff = EtcdBackoff()
        let delays = Set((0..<100).map { _ in backoff.delay(afterFailures: 3) })
        #expect(delays.count > 50)
    }
}

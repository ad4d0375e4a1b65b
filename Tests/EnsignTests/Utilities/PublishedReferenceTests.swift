import EnsignSupport
import EnsignTestSupport
import Foundation
import Synchronization
import Testing

@testable import Ensign

/// `PublishedReference` is how a root context's readers take its snapshot without a lock;
/// `scripts/test` runs these under the thread sanitizer, which checks its reclamation.
@Suite("PublishedReference")
struct PublishedReferenceTests {
    /// An object that counts its releases and can tell whether it was read after one.
    final class Payload: Sendable {
        let sequence: Int
        /// `sequence` again, negated: a read of a freed (and reused) object is unlikely to
        /// find the two still matching, and the sanitizer reports it anyway.
        let check: Int
        let releases: SharedCount

        init(_ sequence: Int, releases: SharedCount) {
            self.sequence = sequence
            self.check = -sequence
            self.releases = releases
        }

        deinit { releases.value.add(1, ordering: .relaxed) }

        var isIntact: Bool { check == -sequence }
    }

    /// A number the test's threads share (an `Atomic` cannot be captured by an escaping closure).
    final class SharedCount: Sendable {
        let value = Atomic<Int>(0)

        var current: Int { value.load(ordering: .acquiring) }

        func set(_ newValue: Int) { value.store(newValue, ordering: .releasing) }
    }

    /// Threads of a test, each on a thread of its own: a Dispatch queue's pool on a two-core
    /// machine can be too small to run a publisher behind readers that spin.
    final class TestThreads: Sendable {
        private let running = DispatchGroup()
        /// Set when the watchdog gives up, so loops end instead of spinning on.
        let stopped = SharedCount()

        /// Runs `body` on a new thread.
        func start(_ body: @escaping @Sendable () -> Void) {
            running.enter()
            Thread { [running] in
                body()
                running.leave()
            }.start()
        }

        /// Waits for every thread to end; after ``watchdog`` it asks them to stop and returns `false`.
        func finish() -> Bool {
            guard running.wait(timeout: .now() + PublishedReferenceTests.watchdog) == .success else {
                stopped.set(1)
                return false
            }
            return true
        }
    }

    /// How long a run may take before the watchdog calls it stuck: a publisher waiting for a
    /// reader that never leaves would hang forever, and a shared machine under the sanitizer
    /// is slow.
    static let watchdog = DispatchTimeInterval.seconds(120)

    @Test("A read sees the object published last, and a publish frees the one it replaced")
    func publishReplacesAndFrees() {
        let releases = SharedCount()
        let reference = PublishedReference(Payload(1, releases: releases))
        #expect(reference.read { $0.sequence } == 1)
        reference.publish(Payload(2, releases: releases))
        #expect(reference.read { $0.sequence } == 2)
        #expect(releases.current == 1)
        let held = reference.load()
        reference.publish(Payload(3, releases: releases))
        // A retained load keeps its object past the publish that replaces it.
        #expect(held.sequence == 2 && held.isIntact)
        #expect(releases.current == 1)
    }

    @Test("A publish waits for a read in flight before freeing the object that read borrowed")
    func publishWaitsForReader() {
        let releases = SharedCount()
        let reference = PublishedReference(Payload(1, releases: releases))
        let (inside, leave) = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
        // What the reader saw as it left (1: its object intact and not yet freed), and
        // whether the publish returned.
        let (readerSaw, published) = (SharedCount(), SharedCount())
        let threads = TestThreads()
        threads.start {
            reference.read { payload in
                inside.signal()
                _ = leave.wait(timeout: .now() + Self.watchdog)
                // The publisher has swapped the object by now, but must not have freed it.
                readerSaw.set(payload.isIntact && payload.sequence == 1 && releases.current == 0 ? 1 : -1)
            }
        }
        #expect(inside.wait(timeout: .now() + Self.watchdog) == .success)
        threads.start {
            reference.publish(Payload(2, releases: releases))
            published.set(1)
        }
        #expect(waitUntil("the publisher to swap the object in") { reference.read { $0.sequence } == 2 })
        // Time for the publisher to return, if it (wrongly) would not wait for the reader.
        Thread.sleep(forTimeInterval: 0.05)
        #expect(published.current == 0)
        #expect(releases.current == 0)
        leave.signal()
        #expect(threads.finish())
        #expect(readerSaw.current == 1)
        #expect(published.current == 1)
        #expect(releases.current == 1)
    }

    @Test("Readers racing a publisher never see an object older than the last publish they knew had returned")
    func readersRacingPublisher() {
        let releases = SharedCount()
        let reference = PublishedReference(Payload(0, releases: releases))
        let publishes = 20_000
        // The sequence of the last publish that returned, stored after it returned.
        let acknowledged = SharedCount()
        let finished = SharedCount()
        let problems = LockedState<[String]>([])
        let threads = TestThreads()
        for reader in 0..<3 {
            threads.start {
                var latestSeen = 0
                var reads = 0
                while (finished.current == 0 || reads < 1_000) && threads.stopped.current == 0 {
                    let known = acknowledged.current
                    // Alternately borrowed and retained, the two ways a context reads.
                    let (sequence, intact) =
                        reads.isMultiple(of: 2)
                        ? reference.read { ($0.sequence, $0.isIntact) }
                        : { (payload: Payload) in (payload.sequence, payload.isIntact) }(reference.load())
                    reads += 1
                    guard intact, sequence >= known, sequence >= latestSeen else {
                        problems.withLock {
                            $0.append(
                                "reader \(reader): read \(sequence) (intact: \(intact)) after \(known) was"
                                    + " acknowledged and \(latestSeen) seen")
                        }
                        return
                    }
                    latestSeen = sequence
                }
            }
        }
        threads.start {
            for sequence in 1...publishes where threads.stopped.current == 0 {
                reference.publish(Payload(sequence, releases: releases))
                acknowledged.set(sequence)
            }
            finished.set(1)
        }
        let ended = threads.finish()
        #expect(ended, "the publisher or a reader made no progress within \(Self.watchdog)")
        #expect(problems.withLock { $0 } == [])
        guard ended else { return }
        #expect(reference.read { $0.sequence } == publishes)
        // Every replaced object was freed, and only those: none leaked, none freed early.
        #expect(releases.current == publishes)
    }
}

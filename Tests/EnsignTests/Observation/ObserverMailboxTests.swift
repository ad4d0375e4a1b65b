import EnsignTestSupport
import Testing

@testable import Ensign

/// The mailbox of an observer that runs on an actor, driven by hand: the test is the actor,
/// and runs each drain job the mailbox schedules.
@Suite("Observer mailboxes")
struct ObserverMailboxTests {
    /// A mailbox whose scheduled drain jobs are counted, for the test to run.
    private static func mailbox() -> (ObserverMailbox<Int>, scheduled: Recorder<Int>) {
        let scheduled = Recorder<Int>()
        return (ObserverMailbox<Int> { _ in scheduled.record(1) }, scheduled)
    }

    @Test("One job at a time: posts while a job is scheduled schedule no other, and a job runs them in order")
    func oneJobAtATime() {
        let (mailbox, scheduled) = Self.mailbox()
        for value in 1...10 { mailbox.post(value) }
        #expect(scheduled.count == 1)
        let run = Recorder<Int>()
        mailbox.drain { run.record($0) }
        #expect(run.values == Array(1...10))
        #expect(scheduled.count == 1)
        #expect(mailbox.queuedCount == 0)
        mailbox.post(11)  // the job has ended: a new one is scheduled
        #expect(scheduled.count == 2)
    }

    @Test("A long backlog is run a share per job, the next job scheduled, the order kept")
    func sharePerJob() {
        let (mailbox, scheduled) = Self.mailbox()
        let total = ObserverMailbox<Int>.messagesPerJob * 2 + 5
        for value in 1...total { mailbox.post(value) }
        let run = Recorder<Int>()
        mailbox.drain { run.record($0) }
        #expect(run.count == ObserverMailbox<Int>.messagesPerJob)
        #expect(scheduled.count == 2)
        // A post during a job joins its queue, and is run by a later job of the same chain.
        mailbox.post(total + 1)
        #expect(scheduled.count == 2)
        mailbox.drain { run.record($0) }
        mailbox.drain { run.record($0) }
        #expect(run.values == Array(1...total + 1))
        #expect(scheduled.count == 3)
    }

    @Test("A handler that posts runs the new message in the same job, after the current one")
    func postFromInside() {
        let (mailbox, scheduled) = Self.mailbox()
        mailbox.post(1)
        let run = Recorder<Int>()
        mailbox.drain { value in
            run.record(value)
            if value < 5 { mailbox.post(value + 1) }
        }
        #expect(run.values == [1, 2, 3, 4, 5])
        #expect(scheduled.count == 1)
    }

    @Test("Closing drops the queue, ends the running job after the current message, and ignores later posts")
    func close() {
        let (mailbox, scheduled) = Self.mailbox()
        for value in 1...10 { mailbox.post(value) }
        let run = Recorder<Int>()
        mailbox.drain { value in
            run.record(value)
            if value == 3 { mailbox.close() }  // from inside: returns at once
        }
        #expect(run.values == [1, 2, 3])
        #expect(mailbox.isClosed)
        #expect(mailbox.queuedCount == 0)
        mailbox.post(11)
        #expect(mailbox.queuedCount == 0)
        #expect(scheduled.count == 1)
        mailbox.drain { run.record($0) }
        #expect(run.values == [1, 2, 3])
    }
}

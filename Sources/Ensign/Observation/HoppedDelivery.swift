/// One change queued for an observer that runs on an actor: what its handler is called with,
/// and the transaction its run is logged under.
struct HoppedDelivery<Payload: Sendable>: Sendable {
    var payload: Payload
    var transaction: UInt64
}

/// The drain jobs of observers that run on an actor: each starts one job on the target actor
/// that runs the mailbox's queued changes in order and logs every run in the change log.
enum HoppedDrain {
    /// Drain jobs that run `handler` on the main actor.
    static func onMainActor<Payload: Sendable>(
        label: String, keys: @escaping @Sendable (Payload) -> [String], changeLog: ChangeLog,
        _ handler: @escaping @MainActor @Sendable (Payload) -> Void
    ) -> @Sendable (ObserverMailbox<HoppedDelivery<Payload>>) -> Void {
        { mailbox in
            // One task per burst, not per change: the mailbox, not task order, keeps the order.
            // Detached: the handler runs with none of the writer's task-locals or priority.
            Task.detached { @MainActor in
                mailbox.drain { delivery in
                    let duration = ContinuousClock().measure { handler(delivery.payload) }
                    changeLog.append(
                        [changeLog.run(label, keys: keys(delivery.payload), duration)], to: delivery.transaction)
                }
            }
        }
    }

    /// Drain jobs that run `handler` isolated to `actor`, which the observer holds weakly:
    /// once it is gone, nothing more is delivered.
    static func isolated<Payload: Sendable, Isolation: Actor>(
        to actor: Isolation, label: String, keys: @escaping @Sendable (Payload) -> [String], changeLog: ChangeLog,
        _ handler: @escaping @Sendable (isolated Isolation, Payload) -> Void
    ) -> @Sendable (ObserverMailbox<HoppedDelivery<Payload>>) -> Void {
        { [weak actor] mailbox in
            guard let actor else { return mailbox.close() }
            Task.detached {
                await drain(mailbox, on: actor) { actor, delivery in
                    let duration = ContinuousClock().measure { handler(actor, delivery.payload) }
                    changeLog.append(
                        [changeLog.run(label, keys: keys(delivery.payload), duration)], to: delivery.transaction)
                }
            }
        }
    }

    private static func drain<Payload: Sendable, Isolation: Actor>(
        _ mailbox: ObserverMailbox<HoppedDelivery<Payload>>, on actor: isolated Isolation,
        _ body: @Sendable (isolated Isolation, HoppedDelivery<Payload>) -> Void
    ) {
        mailbox.drain { body(actor, $0) }
    }
}

extension AppContext {
    /// Calls `handler` on the main actor with the key's new value each time it changes, until
    /// the token is cancelled or released.
    ///
    /// Every change is delivered, in commit order, none skipped or merged: the writer's
    /// thread queues it in the observer's mailbox, and one job at a time runs the queue on
    /// the main actor (on Linux, the main dispatch queue, which an app's main run loop or
    /// `dispatchMain()` serves). The handler runs later than the write returns; it may read
    /// the context (it sees the newest value, which may be newer than the one it is given)
    /// and write to it.
    ///
    /// After ``ObservationToken/cancel()`` returns, no call starts: queued changes are dropped,
    /// and a cancel from another thread while the handler runs waits for that call to return.
    /// So never cancel from code the handler waits for. The context's change log records
    /// each run when it happens, under `label`.
    ///
    /// ```swift
    /// @MainActor final class PendingListScreen {
    ///     var isPendingListShown = false
    ///     private var token: ObservationToken?
    ///     init(context: AppContext) {
    ///         token = context.observe(.showPendingList, label: "beneficiaries screen", on: .mainActor) {
    ///             [weak self] isShown in self?.isPendingListShown = isShown
    ///         }
    ///     }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - key: the flag or preference to observe.
    ///   - label: names the observer in the change log (`ensign log`).
    ///   - isolation: `.mainActor`.
    ///   - handler: called on the main actor with each new value.
    public func observe<Value, Kind>(
        _ key: ContextKey<Value, Kind>, label: String? = nil, on isolation: ObserverIsolation,
        _ handler: @escaping @MainActor @Sendable (Value) -> Void
    ) -> ObservationToken {
        let name = fullName(key.name)
        let label = label ?? "observer of \(name) on the main actor"
        let drain = HoppedDrain.onMainActor(label: label, keys: { _ in [name] }, changeLog: store.changeLog, handler)
        return addHoppingObserver(key, label: label, drain: drain)
    }

    /// Calls `handler` isolated to `actor` with the key's new value each time it changes,
    /// until the token is cancelled or released.
    ///
    /// Delivery works as with ``observe(_:label:on:_:)``: every change, in commit order, one
    /// call at a time, queued by the writer and run on the actor; after
    /// ``ObservationToken/cancel()`` returns, no call starts. The handler gets the actor as an
    /// `isolated` parameter, so it reads and changes the actor's state synchronously. The
    /// context holds the actor weakly: once the actor is released, nothing more is delivered.
    ///
    /// To run handlers on a serial executor of your own (a queue, a thread), give an actor
    /// that executor as its `unownedExecutor`: the handler then runs on it.
    ///
    /// ```swift
    /// actor PageCache {
    ///     var pageSize = 20
    /// }
    /// let cache = PageCache()
    /// let token = context.observe(.pageSize, isolatedTo: cache) { cache, size in cache.pageSize = size }
    /// ```
    ///
    /// - Parameters:
    ///   - key: the flag or preference to observe.
    ///   - label: names the observer in the change log (`ensign log`).
    ///   - actor: the actor the handler runs on.
    ///   - handler: called isolated to `actor` with each new value.
    public func observe<Value, Kind, Isolation: Actor>(
        _ key: ContextKey<Value, Kind>, label: String? = nil, isolatedTo actor: Isolation,
        _ handler: @escaping @Sendable (isolated Isolation, Value) -> Void
    ) -> ObservationToken {
        let name = fullName(key.name)
        let label = label ?? "observer of \(name) on \(Isolation.self)"
        let drain = HoppedDrain.isolated(
            to: actor, label: label, keys: { _ in [name] }, changeLog: store.changeLog, handler)
        return addHoppingObserver(key, label: label, drain: drain)
    }

    /// Calls `handler` on the main actor once per transaction that changes any of the named
    /// keys (relative to this context's scope), with those keys' changes; delivered like
    /// ``observe(_:label:on:_:)``.
    ///
    /// ```swift
    /// let token = context.observe(keysNamed: ["beneficiaries.pageSize"], on: .mainActor) { batch in
    ///     print(batch.keys)
    /// }
    /// ```
    public func observe(
        keysNamed names: [String], label: String? = nil, on isolation: ObserverIsolation,
        _ handler: @escaping @MainActor @Sendable (ChangeBatch) -> Void
    ) -> ObservationToken {
        let keys = names.map(fullName)
        let label = label ?? "observer of \(keys.joined(separator: ", ")) on the main actor"
        let drain = HoppedDrain.onMainActor(label: label, keys: \.keys, changeLog: store.changeLog, handler)
        return addHoppingBatchObserver(keys: Set(keys), label: label, drain: drain)
    }

    /// Calls `handler` isolated to `actor` once per transaction that changes any of the named
    /// keys (relative to this context's scope); delivered like ``observe(_:label:isolatedTo:_:)``.
    public func observe<Isolation: Actor>(
        keysNamed names: [String], label: String? = nil, isolatedTo actor: Isolation,
        _ handler: @escaping @Sendable (isolated Isolation, ChangeBatch) -> Void
    ) -> ObservationToken {
        let keys = names.map(fullName)
        let label = label ?? "observer of \(keys.joined(separator: ", ")) on \(Isolation.self)"
        let drain = HoppedDrain.isolated(to: actor, label: label, keys: \.keys, changeLog: store.changeLog, handler)
        return addHoppingBatchObserver(keys: Set(keys), label: label, drain: drain)
    }

    /// Calls `handler` on the main actor once per transaction with every key that changed (in
    /// a prefix scope: every key under the prefix); delivered like ``observe(_:label:on:_:)``.
    public func observeAll(
        label: String? = nil, on isolation: ObserverIsolation,
        _ handler: @escaping @MainActor @Sendable (ChangeBatch) -> Void
    ) -> ObservationToken {
        let label = label ?? "observer of all keys on the main actor"
        let drain = HoppedDrain.onMainActor(label: label, keys: \.keys, changeLog: store.changeLog, handler)
        return addHoppingBatchObserver(keys: nil, label: label, drain: drain)
    }

    /// Calls `handler` isolated to `actor` once per transaction with every key that changed;
    /// delivered like ``observe(_:label:isolatedTo:_:)``.
    public func observeAll<Isolation: Actor>(
        label: String? = nil, isolatedTo actor: Isolation,
        _ handler: @escaping @Sendable (isolated Isolation, ChangeBatch) -> Void
    ) -> ObservationToken {
        let label = label ?? "observer of all keys on \(Isolation.self)"
        let drain = HoppedDrain.isolated(to: actor, label: label, keys: \.keys, changeLog: store.changeLog, handler)
        return addHoppingBatchObserver(keys: nil, label: label, drain: drain)
    }

    /// Registers an observer of `key` that queues each new value in a mailbox drained by `drain`'s jobs.
    private func addHoppingObserver<Value, Kind>(
        _ key: ContextKey<Value, Kind>, label: String,
        drain: @escaping @Sendable (ObserverMailbox<HoppedDelivery<Value>>) -> Void
    ) -> ObservationToken {
        let name = fullName(key.name)
        let defaultValue = key.defaultValue
        let mailbox = ObserverMailbox(scheduleDrain: drain)
        let liveness = ObserverLiveness()
        let post: ObserverRegistry.KeyHandler = { _, entry, transaction in
            let value = entry.value.flatMap(Value.init(flagValue:)) ?? defaultValue
            mailbox.post(HoppedDelivery(payload: value, transaction: transaction))
        }
        let identifier = store.observers.add(
            key: name, label: label, liveness: liveness, onContextEnd: mailbox.close, logsOwnRuns: true, handler: post)
        return ObservationToken { [weak store] in
            store?.observers.remove(identifier, key: name, liveness: liveness)
            mailbox.close()
        }
    }

    /// Registers a batch observer that queues each batch in a mailbox drained by `drain`'s jobs.
    private func addHoppingBatchObserver(
        keys: Set<String>?, label: String,
        drain: @escaping @Sendable (ObserverMailbox<HoppedDelivery<ChangeBatch>>) -> Void
    ) -> ObservationToken {
        let mailbox = ObserverMailbox(scheduleDrain: drain)
        let liveness = ObserverLiveness()
        let post: ObserverRegistry.BatchHandler = { batch in
            mailbox.post(HoppedDelivery(payload: batch, transaction: batch.transaction))
        }
        let identifier = store.observers.addBatch(
            keys: keys, prefix: keyPrefix, label: label, liveness: liveness, onContextEnd: mailbox.close,
            logsOwnRuns: true, handler: post)
        return ObservationToken { [weak store] in
            store?.observers.remove(identifier, key: nil, liveness: liveness)
            mailbox.close()
        }
    }
}

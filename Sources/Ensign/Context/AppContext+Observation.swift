import EnsignSupport

extension AppContext {
    /// Calls `handler` with the key's new value each time it changes, until the token is
    /// cancelled or released.
    ///
    /// A write that leaves the value as it was notifies nobody, and a change to another key
    /// never calls this handler. Handlers run after the change is visible to readers,
    /// outside every lock, in commit order; a handler may read the context (it sees the new
    /// value) and may write to it (that write is delivered after the current round).
    ///
    /// ```swift
    /// let token = context.observe(.showPendingList, label: "beneficiaries list") { isShown in
    ///     render(showingPending: isShown)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - key: the flag or preference to observe.
    ///   - label: names the observer in the change log (`ensign log`).
    ///   - handler: called with each new value.
    public func observe<Value, Kind>(
        _ key: ContextKey<Value, Kind>, label: String? = nil, _ handler: @escaping @Sendable (Value) -> Void
    ) -> ObservationToken {
        addObserver(key, label: label, handler)
    }

    /// Registers `handler` for `key`; `onContextEnd` runs if the context goes away first.
    func addObserver<Value, Kind>(
        _ key: ContextKey<Value, Kind>, label: String?, onContextEnd: (@Sendable () -> Void)? = nil,
        _ handler: @escaping @Sendable (Value) -> Void
    ) -> ObservationToken {
        let name = fullName(key.name)
        let defaultValue = key.defaultValue
        let liveness = ObserverLiveness()
        let identifier = store.observers.add(key: name, label: label, liveness: liveness, onContextEnd: onContextEnd) {
            _, entry, _ in
            handler(entry.value.flatMap(Value.init(flagValue:)) ?? defaultValue)
        }
        return ObservationToken { [weak store] in store?.observers.remove(identifier, key: name, liveness: liveness) }
    }

    /// Calls `handler` once per transaction that changes any of the named keys (relative to
    /// this context's scope), with those keys' changes.
    public func observe(
        keysNamed names: [String], label: String? = nil, _ handler: @escaping @Sendable (ChangeBatch) -> Void
    ) -> ObservationToken {
        addBatchObserver(keys: Set(names.map(fullName)), label: label, handler)
    }

    /// Calls `handler` once per transaction with every key that changed (in a prefix scope:
    /// every key under the prefix).
    public func observeAll(label: String? = nil, _ handler: @escaping @Sendable (ChangeBatch) -> Void)
        -> ObservationToken
    {
        addBatchObserver(keys: nil, label: label, handler)
    }

    func addBatchObserver(
        keys: Set<String>?, flagSet: String? = nil, label: String?,
        _ handler: @escaping @Sendable (ChangeBatch) -> Void
    ) -> ObservationToken {
        let liveness = ObserverLiveness()
        let identifier = store.observers.addBatch(
            keys: keys, prefix: keyPrefix, flagSet: flagSet, label: label, liveness: liveness
        ) {
            handler($0)
        }
        return ObservationToken { [weak store] in store?.observers.remove(identifier, key: nil, liveness: liveness) }
    }

    /// The key's values as an asynchronous sequence: the current value first, then each change.
    ///
    /// The sequence buffers only the newest value: a slow consumer skips intermediate values
    /// and always gets the latest. It ends when the consuming task is cancelled or the
    /// context is released.
    ///
    /// ```swift
    /// for await pageSize in context.values(for: .pageSize) { list.reload(pageSize: pageSize) }
    /// ```
    public func values<Value, Kind>(for key: ContextKey<Value, Kind>, label: String? = nil) -> AsyncStream<Value> {
        valueStream(for: key, label: label)
    }

    /// - Parameter afterFirstRead: for tests: runs between reading the first value and
    ///   yielding it, the moment a concurrent change could overtake that value.
    func valueStream<Value, Kind>(
        for key: ContextKey<Value, Kind>, label: String?, afterFirstRead: (@Sendable () -> Void)? = nil
    ) -> AsyncStream<Value> {
        let (stream, continuation) = AsyncStream.makeStream(of: Value.self, bufferingPolicy: .bufferingNewest(1))
        // Every yield, the first one and each change's, reads the value current at that moment
        // and yields it under the sequence's own lock. Yields are then in snapshot order: a change
        // delivered while the first value is read cannot be overtaken by that (older) value,
        // which would leave the sequence on a stale value until the next change. A change may
        // repeat a value; none is missed. (Lock order: this lock, then the snapshot lock;
        // observers run outside every lock of the context, so nothing holds them the other way.)
        let identity = resolvedIdentity(key.identity)
        let defaultValue = key.defaultValue
        let yieldLock = LockedState(())
        let yieldCurrent: @Sendable (ContextStore, (@Sendable () -> Void)?) -> Void = { store, hook in
            yieldLock.withLock { _ in
                let value = store.snapshot().value(identity: identity, default: defaultValue)
                hook?()
                continuation.yield(value)
            }
        }
        // The sequence's one registration also finishes it when the context goes away, and its
        // end removes that registration: nothing stays behind either way.
        let finish: @Sendable () -> Void = { continuation.finish() }
        let token = addObserver(key, label: label ?? "values(for: \(key.name))", onContextEnd: finish) {
            [weak store = self.store] _ in
            if let store { yieldCurrent(store, nil) }
        }
        continuation.onTermination = { _ in token.cancel() }
        yieldCurrent(store, afterFirstRead)
        return stream
    }
}

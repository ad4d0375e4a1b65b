import EnsignSupport
import EnsignYAML

/// Compiles targeting rules on a background thread while the files are still being read, so a
/// large set's rules are mostly ready when reading ends instead of being compiled after it.
///
/// Only rules without `$ref` are compiled early: they do not depend on the `$evaluators`, which
/// may come later in a file or in another file. Each rule is claimed from its definition's
/// ``TargetingHandoff`` and its result left there, its tree released at once. The rest, and any
/// rule no thread has claimed, are compiled by
/// ``FlagTargetingCompiler/compileAll(_:parallelFrom:)``, which records every rule's problems in
/// the definitions' order, so the result and the diagnostics are the same as compiling
/// everything at the end.
///
/// The compiling thread runs at background priority (``BackgroundThread``): parsing and
/// reading, which the load waits for, keep both cores, and the rules compile in whatever time
/// they leave free. The thread that parses the file ahead compiles queued rules too, one at a
/// time, whenever it is a whole ring of events ahead of the reader (``idleWork``): measured on
/// two cores, the background thread got only 2–3 ms of a 10,000-flag load while the parsing
/// thread's core idled about twice that, and the parsing thread now takes 130–210 of the
/// 1,250 rules in that time.
///
/// The loader lets the background thread go on while it gathers the definitions and sorts the
/// set, then calls ``finish()``, which compiles the rules still queued on the calling thread
/// too, from the back of the queue while the background thread works from the front; each rule
/// goes to whichever claims it first. A pipeline dropped without ``finish()`` (its file was
/// refused, or never loaded) stops its thread without compiling the rest.
final class RuleCompilationPipeline: Sendable {
    /// Rules queued before the background thread is woken for them.
    static let batchSize = 8

    private let work: Work
    /// Started with the first full batch (a file with few rules never starts it); taken when
    /// joined, so that it is joined once.
    private let thread = LockedState<BackgroundThread?>(nil)

    /// A pipeline compiling with `options` (and no evaluators: it never compiles a `$ref`).
    init(options: TargetingOptions) {
        work = Work(compiler: FlagTargetingCompiler(evaluators: [:], evaluatorNodes: [:], options: options))
    }

    deinit {
        _ = work.close(releasingAll: false)
        joinThread()
    }

    /// Queues `definition`'s rule, when it has one without `$ref`; compiles the oldest queued
    /// rule on this thread instead when the background thread is ``maximumBacklog`` behind.
    func submit(_ definition: FlagDefinition) {
        guard definition.hasTargeting, !definition.targetingUsesEvaluator else { return }
        let (isReleased, overflow) = work.queue(definition)
        if let overflow { work.compileUnlessClaimed(overflow) }
        guard isReleased else { return }
        thread.withLock { thread in
            if thread == nil { thread = BackgroundThread(name: "ensign-rules") { [work] in work.compileReleased() } }
        }
    }

    /// Compiles the oldest queued rule on the calling thread, whether or not its batch has been
    /// released; `false` when none is queued. The parsing thread calls it while it waits for the
    /// reader (``idleWork``), on the core it would leave idle, where the background thread's
    /// lowered priority did not always get the rule onto that core in time.
    func compileOneQueued() -> Bool {
        guard let definition = work.takeOldest() else { return false }
        work.compileUnlessClaimed(definition)
        return true
    }

    /// ``compileOneQueued()`` as the parser's idle work.
    var idleWork: IdleWork { IdleWork { [self] in compileOneQueued() } }

    /// Rules queued and not yet taken at most: their trees stay in memory until compiled, and
    /// trees freed long after they were made leave holes among the definitions made since
    /// (1,000 trees waiting at the end of a 10,000-flag load kept 0.5–2 MB more resident).
    /// Larger than ``batchSize``, or no batch would ever be released to the thread.
    static let maximumBacklog = 32

    /// How many queued rules the background thread has not taken yet.
    var backlog: Int { work.backlog }

    /// Whether the background thread has been started (and not yet joined).
    var isThreadRunning: Bool { thread.withLock { $0 != nil } }

    /// Compiles every queued rule, on this thread as well as the background one, and waits
    /// until each is compiled, its result in its definition. Call it once reading has ended.
    func finish() {
        for definition in work.close(releasingAll: true).reversed() {
            // The background thread claims in queue order, so once it has claimed one, every
            // rule before it is claimed too.
            guard let node = definition.claimTargetingTree() else { break }
            work.compiler.compileAlone(definition, rule: node)
        }
        joinThread()
    }

    private func joinThread() {
        thread.withLock { $0.take() }?.join()
    }

    /// The queue the reading thread fills and the background thread empties; the thread holds
    /// it rather than the pipeline, so that dropping the pipeline stops the thread.
    private final class Work: Sendable {
        private struct Queue {
            var definitions: [FlagDefinition] = []
            /// How many of `definitions` the background thread may take (whole batches, so
            /// that it is woken once a batch, not once a rule).
            var released = 0
            /// The next definition the background thread takes.
            var next = 0
            /// Set once reading is over: the background thread takes what is released and ends.
            var isClosed = false

            /// Takes the oldest queued definition (there must be one), releasing it if it was not.
            mutating func takeNext() -> FlagDefinition {
                defer {
                    next += 1
                    released = max(released, next)
                }
                return definitions[next]
            }
        }

        let compiler: FlagTargetingCompiler
        private let queue = LockedCondition(Queue())

        init(compiler: FlagTargetingCompiler) {
            self.compiler = compiler
        }

        /// Queues `definition`; returns whether a batch was released (the thread must run),
        /// and the oldest queued definition, taken for the caller to compile, when the queue
        /// is longer than ``RuleCompilationPipeline/maximumBacklog``.
        func queue(_ definition: FlagDefinition) -> (isReleased: Bool, overflow: FlagDefinition?) {
            let (isReleased, overflow) = queue.withLock { queue -> (Bool, FlagDefinition?) in
                queue.definitions.append(definition)
                var overflow: FlagDefinition?
                if queue.definitions.count - queue.next > RuleCompilationPipeline.maximumBacklog {
                    overflow = queue.takeNext()
                }
                guard queue.definitions.count - queue.released >= RuleCompilationPipeline.batchSize else {
                    return (false, overflow)
                }
                queue.released = queue.definitions.count
                return (true, overflow)
            }
            if isReleased { queue.broadcast() }
            return (isReleased, overflow)
        }

        var backlog: Int { queue.withLock { $0.definitions.count - $0.next } }

        /// Takes the oldest queued definition, released or not, unless the queue is closed.
        func takeOldest() -> FlagDefinition? {
            queue.withLock { queue -> FlagDefinition? in
                guard !queue.isClosed, queue.next < queue.definitions.count else { return nil }
                return queue.takeNext()
            }
        }

        /// Closes the queue, releasing the rest of it to the background thread or taking it
        /// back, and returns the definitions that thread had not taken.
        func close(releasingAll: Bool) -> ArraySlice<FlagDefinition> {
            let untaken = queue.withLock { queue in
                queue.isClosed = true
                queue.released = releasingAll ? queue.definitions.count : queue.next
                return queue.definitions[queue.next...]
            }
            queue.broadcast()
            return untaken
        }

        /// The background thread's work: compiles released rules in order until the queue closes.
        func compileReleased() {
            while let definition = queue.wait(
                until: { $0.next < $0.released || $0.isClosed },
                then: { queue -> FlagDefinition? in queue.next < queue.released ? queue.takeNext() : nil })
            {
                compileUnlessClaimed(definition)
            }
        }

        /// Compiles `definition`'s rule here, unless another thread has claimed its tree.
        func compileUnlessClaimed(_ definition: FlagDefinition) {
            guard let node = definition.claimTargetingTree() else { return }
            compiler.compileAlone(definition, rule: node)
        }
    }
}

extension YAMLNode {
    /// Whether a mapping anywhere in this tree has the key `key` (as a plain scalar's text).
    func containsMappingKey(_ key: String) -> Bool {
        switch content {
        case .scalar: return false
        case .sequence(let elements): return elements.contains { $0.containsMappingKey(key) }
        case .mapping(let entries):
            return entries.contains { $0.key.scalarText == key || $0.value.containsMappingKey(key) }
        }
    }
}

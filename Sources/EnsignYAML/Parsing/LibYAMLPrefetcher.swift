import EnsignSupport

// libyaml's part: compiled with the YAML trait only (see Package.swift).
#if YAML
    import CYAML

    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Darwin)
        import Darwin
    #endif

    /// Runs libyaml's parser on a thread of its own, a few thousand events ahead of the
    /// ``YAMLEventReader`` that reads them, so a large file's parse (a fifth of loading 10,000
    /// flags) overlaps with what the reader builds from the events, on a second core.
    ///
    /// The events travel in batches through a ring: the parsing thread fills an empty batch and
    /// queues it; the reader takes full batches in order and hands each back once it has read
    /// past its last event. Every event is created and deleted (`yaml_event_delete`) on the
    /// parsing thread, as libyaml's allocations are, so memory never crosses between the two
    /// threads' allocator arenas. The reader sees exactly the events, and at exactly the point,
    /// that parsing on its own thread would give: the events before a syntax error, then the
    /// error.
    ///
    /// While the ring is full (the reader has every batch) the parsing thread does its
    /// ``IdleWork``, one unit at a time, checking for a returned batch between units.
    final class LibYAMLPrefetcher: @unchecked Sendable {
        // @unchecked Sendable, proven: `parser` and the events of a batch the parsing thread
        // holds are touched only by that thread; a batch changes hands only under `handoff`'s
        // lock (queued as full by the parser, taken by the reader, queued as empty by the
        // reader, taken by the parser), so each hand-over happens-before the next owner's
        // access; `idleWork` is immutable and Sendable, and runs without the lock held. The
        // reader's fields are touched by the reader's thread only. `finish()` joins the
        // thread before anything it used is freed.

        /// Events per batch: enough that hand-overs are rare (a few hundred for a 1 MB file).
        static let batchCapacity = 1024
        /// Batches in the ring: the parser can run up to three batches ahead.
        static let batchCount = 4

        private let parser: UnsafeMutablePointer<yaml_parser_t>
        private let batches: UnsafeMutablePointer<yaml_event_t>
        /// How many events of each batch hold libyaml allocations (parsed, not yet deleted).
        private let liveCounts: UnsafeMutablePointer<Int>
        private let input: UnsafeBufferPointer<UInt8>
        private let inputCount: Int
        private let file: String

        /// What the two threads hand each other, behind the lock they wait on.
        private struct Handoff {
            var fullBatches: [Int] = []
            var emptyBatches: [Int] = Array(0..<LibYAMLPrefetcher.batchCount)
            var isParsingOver = false
            var parseError: YAMLError?
            var isCancelled = false
        }
        private let handoff = LockedCondition(Handoff())

        // The reader's side (its thread only):
        /// The batch being read, and the next event in it.
        private var readingBatch = -1
        private var readingIndex = 0
        private var readingCount = 0
        /// Returned after the last event: libyaml's "no event", as its parser gives past the end.
        private let noEvent: UnsafeMutablePointer<yaml_event_t>

        private var thread: JoinableThread?
        /// What the parsing thread does while it is a whole ring ahead of the reader.
        private let idleWork: IdleWork?

        /// Starts parsing `input` (which must outlive the prefetcher) with `parser`, which the
        /// prefetcher owns from now on, on a new thread, which does `idleWork` whenever it has
        /// to wait for the reader.
        init(
            parser: UnsafeMutablePointer<yaml_parser_t>, input: UnsafeBufferPointer<UInt8>, count: Int, file: String,
            idleWork: IdleWork? = nil
        ) {
            self.parser = parser
            self.idleWork = idleWork
            self.input = input
            self.inputCount = count
            self.file = file
            let slots = Self.batchCapacity * Self.batchCount
            batches = .allocate(capacity: slots)
            batches.initialize(repeating: yaml_event_t(), count: slots)
            liveCounts = .allocate(capacity: Self.batchCount)
            liveCounts.initialize(repeating: 0, count: Self.batchCount)
            noEvent = .allocate(capacity: 1)
            noEvent.initialize(to: yaml_event_t())
            // The thread holds the prefetcher until it ends (no cycle: `thread` keeps only the
            // handle), so even a missing `finish()` could not free what it is using.
            thread = JoinableThread(name: "ensign-yaml") { self.parseAhead() }
        }

        /// Stops the parsing thread (at its next batch) and waits for it, then deletes every
        /// event not yet deleted and the parser. Call it once, before the input goes away.
        func finish() {
            handoff.update { $0.isCancelled = true }
            thread?.join()
            thread = nil
            for batch in 0..<Self.batchCount {
                for index in 0..<liveCounts[batch] { yaml_event_delete(event(batch, index)) }
                liveCounts[batch] = 0
            }
            yaml_parser_delete(parser)
        }

        deinit {
            batches.deinitialize(count: Self.batchCapacity * Self.batchCount)
            batches.deallocate()
            liveCounts.deallocate()
            noEvent.deallocate()
            parser.deinitialize(count: 1)
            parser.deallocate()
        }

        /// The next event, valid until the next call; a syntax error once the events before
        /// it have been read.
        func next() throws(YAMLError) -> UnsafeMutablePointer<yaml_event_t> {
            if readingBatch >= 0, readingIndex < readingCount {
                defer { readingIndex += 1 }
                return event(readingBatch, readingIndex)
            }
            let previous = readingBatch
            let taken: Int? = try takeFullBatch(returning: previous)
            guard let taken else { return noEvent }
            readingBatch = taken
            readingIndex = 1
            readingCount = liveCounts[taken]
            return event(taken, 0)
        }

        /// Hands `previous` (if any) back to the parser and waits for the next full batch;
        /// `nil` once parsing is over and every batch has been read.
        private func takeFullBatch(returning previous: Int) throws(YAMLError) -> Int? {
            if previous >= 0 { handoff.update { $0.emptyBatches.append(previous) } }
            let taken = handoff.wait(
                until: { !$0.fullBatches.isEmpty || $0.isParsingOver },
                then: { handoff -> Result<Int, YAMLError>? in
                    if !handoff.fullBatches.isEmpty { return .success(handoff.fullBatches.removeFirst()) }
                    return handoff.parseError.map { .failure($0) }
                })
            guard let taken else {
                readingBatch = -1
                return nil
            }
            switch taken {
            case .success(let batch): return batch
            case .failure(let error):
                readingBatch = -1
                throw error
            }
        }

        // MARK: The parsing thread

        private func parseAhead() {
            while let batch = takeEmptyBatch() {
                // The reader is done with these events: delete them here, where libyaml made them.
                for index in 0..<liveCounts[batch] { yaml_event_delete(event(batch, index)) }
                var count = 0
                var isOver = false
                var error: YAMLError?
                while count < Self.batchCapacity {
                    guard yaml_parser_parse(parser, event(batch, count)) == 1 else {
                        error = LibYAMLDiagnostics.error(
                            from: parser.pointee, bytes: input, count: inputCount, file: file)
                        isOver = true
                        break
                    }
                    count += 1
                    if event(batch, count - 1).pointee.type == YAML_STREAM_END_EVENT {
                        isOver = true
                        break
                    }
                }
                liveCounts[batch] = count
                handoff.update { handoff in
                    if count > 0 { handoff.fullBatches.append(batch) } else { handoff.emptyBatches.append(batch) }
                    handoff.isParsingOver = isOver
                    handoff.parseError = error
                }
                if isOver { return }
            }
        }

        /// Waits for a batch the reader has handed back, doing ``idleWork`` meanwhile while it
        /// has some; `nil` once cancelled.
        private func takeEmptyBatch() -> Int? {
            if let idleWork {
                while handoff.withLock({ $0.emptyBatches.isEmpty && !$0.isCancelled }), idleWork.run() {}
            }
            return handoff.wait(
                until: { !$0.emptyBatches.isEmpty || $0.isCancelled },
                then: { $0.isCancelled ? nil : $0.emptyBatches.removeFirst() })
        }

        private func event(_ batch: Int, _ index: Int) -> UnsafeMutablePointer<yaml_event_t> {
            batches + batch * Self.batchCapacity + index
        }
    }
#endif

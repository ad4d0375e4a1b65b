import Dispatch
import EnsignSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Watches groups of configuration files and calls back, debounced, with the files whose
/// content changed, by group.
///
/// On Linux it watches the files' parent directories with inotify, which sees what editors
/// and Kubernetes do: replacing a file by rename, swapping a ConfigMap's `..data` symlink,
/// deleting and re-creating. Everywhere (and as the only mechanism without inotify) it also
/// polls the files' stat data. Either way a change is confirmed by a content hash before the
/// callback, so touching a file or rewriting the same bytes reloads nothing.
///
/// A file the context writes itself (the preferences and overrides files) is announced before
/// it is replaced (``expectOwnWrite(of:contents:)``): when the check finds exactly those bytes,
/// they are the new baseline and nothing is reported, so a persisted write is never read back
/// as a reload. Any other content, including an edit that lands after the context's write, is
/// a change as usual.
///
/// The watcher owns its file descriptor and dispatch sources; ``stop()`` (or releasing the
/// watcher) cancels them and closes the descriptor.
final class FileWatcher: Sendable {
    /// A set of files reloaded together: the definitions directory, the preferences file, …
    struct Group: Sendable {
        var name: String
        /// Lists the group's files now (a directory's files change as files come and go).
        var files: @Sendable () -> [String]
        /// Directories whose entries affect the group.
        var directories: [String]
    }

    private let groups: [Group]
    private let debounce: Duration
    private let queue = DispatchQueue(label: "ensign.watcher")
    private let onChange: @Sendable ([String: [String]]) -> Void
    private let state = LockedState(State())

    private struct State {
        var fingerprints: [String: FileFingerprint] = [:]
        var hashes: [String: [String: UInt64]] = [:]
        var sources: [any DispatchSourceProtocol] = []
        var pendingCheck: DispatchWorkItem?
        var isStopped = false
        /// The writes of its own the context announced, by file, oldest first, until a check
        /// sees their bytes (or other bytes after they finished): a check may find any of
        /// them, or the bytes from before the first.
        var ownWrites: [String: [OwnWrite]] = [:]
        var nextWriteNumber: UInt64 = 0
    }

    /// A write of the context's own, announced before the file is replaced (numbered, so that
    /// its end is matched to it).
    struct OwnWrite: Sendable {
        fileprivate var number: UInt64
        fileprivate var path: String
        fileprivate var hash: UInt64
        /// Whether the file has been replaced: until then a check still finds the old content.
        fileprivate var isFinished = false
    }

    /// Starts watching; `onChange` runs on the watcher's queue with the changed files of each
    /// group that changed, by group name.
    init(
        groups: [Group], debounce: Duration, pollInterval: Duration, useNotifications: Bool = true,
        onChange: @escaping @Sendable ([String: [String]]) -> Void
    ) {
        self.groups = groups
        self.debounce = debounce
        self.onChange = onChange
        // Only stat data on the caller's thread: the context has just read every file, and
        // reading them all again to hash them would double its start-up time. The hashes are
        // taken on the watcher's queue (below).
        state.withLock { state in
            for group in groups { state.fingerprints[group.name] = FileFingerprint(files: group.files()) }
        }
        queue.async { [weak self] in self?.takeBaselineHashes() }
        var sources: [any DispatchSourceProtocol] = []
        #if os(Linux)
            if useNotifications, let source = makeNotificationSource() { sources.append(source) }
        #endif
        sources.append(makePollTimer(every: pollInterval))
        state.withLock { $0.sources = sources }
        for source in sources { source.resume() }
    }

    deinit {
        stop()
    }

    /// Stops watching and releases the descriptor; safe to call more than once.
    func stop() {
        let sources = state.withLock { state in
            defer {
                state.sources = []
                state.isStopped = true
                state.pendingCheck?.cancel()
            }
            return state.sources
        }
        for source in sources { source.cancel() }
    }

    /// Returns once the start-up hashing is done (it runs first on the watcher's queue).
    func waitUntilReady() {
        queue.sync {}
    }

    /// Checks every group now, outside the debounce: for tests and for `reloadIfNeeded`.
    func checkNow() {
        queue.sync { check(force: true) }
    }

    // MARK: The context's own writes

    /// Announces that the context is about to replace `path` with `contents`: a check that
    /// finds those bytes takes them as the file's baseline instead of a change. Hand the
    /// result to ``ownWriteFinished(_:succeeded:)`` once the file is replaced (or the write
    /// failed). Writes to one file are announced in the order they are made.
    func expectOwnWrite(of path: String, contents: [UInt8]) -> OwnWrite {
        let hash = FileFingerprint.contentHash(of: contents)
        return state.withLock { state in
            state.nextWriteNumber += 1
            let write = OwnWrite(number: state.nextWriteNumber, path: path, hash: hash)
            state.ownWrites[path, default: []].append(write)
            return write
        }
    }

    /// The announced write is done: once a check has hashed the file after this, other content
    /// in it is someone else's. A failed write leaves the file as it was: nothing is expected.
    func ownWriteFinished(_ write: OwnWrite, succeeded: Bool) {
        state.withLock { state in
            guard let index = state.ownWrites[write.path]?.firstIndex(where: { $0.number == write.number }) else {
                return
            }
            if succeeded {
                state.ownWrites[write.path]![index].isFinished = true
            } else {
                state.ownWrites[write.path]!.remove(at: index)
            }
        }
    }

    /// Takes the context's own writes out of a group's new hashes: a file holding the bytes
    /// of one of them gets them as its previous hash too (no change), and that write and the
    /// ones before it are settled. A write that had finished before the file was hashed, and
    /// whose bytes the file does not hold, was followed by an edit: it is settled too
    /// (`finishedBeforeHashing`; a hash taken before the rename still shows the old bytes).
    private static func settleOwnWrites(
        _ state: inout State, previous: inout [String: UInt64], hashes: [String: UInt64],
        finishedBeforeHashing: Set<UInt64>
    ) {
        for (path, writes) in state.ownWrites {
            guard let hash = hashes[path] else { continue }
            if let index = writes.lastIndex(where: { $0.hash == hash }) {
                previous[path] = hash
                state.ownWrites[path]!.removeFirst(index + 1)
            } else {
                state.ownWrites[path]!.removeAll { finishedBeforeHashing.contains($0.number) }
            }
            if state.ownWrites[path]!.isEmpty { state.ownWrites[path] = nil }
        }
    }

    // MARK: Checking

    /// Hashes every group's files, kept only when their stat data did not move while (or
    /// since) the context read them; otherwise the first check treats the group as changed.
    private func takeBaselineHashes() {
        for group in groups {
            let files = group.files()
            let before = FileFingerprint(files: files)
            let hashes = FileFingerprint.contentHashes(of: files)
            let after = FileFingerprint(files: files)
            state.withLock { state in
                guard before == after, state.fingerprints[group.name] == before, state.hashes[group.name] == nil else {
                    return
                }
                state.hashes[group.name] = hashes
            }
        }
    }

    /// Called on `queue`: compares each group with what was last seen and reports changed ones.
    private func check(force: Bool) {
        var changed: [String: [String]] = [:]
        for group in groups {
            let files = group.files()
            let fingerprint = FileFingerprint(files: files)
            let statChanged = state.withLock { $0.fingerprints[group.name] != fingerprint }
            guard force || statChanged else { continue }
            let finishedBeforeHashing = state.withLock { state in
                Set(state.ownWrites.values.joined().filter(\.isFinished).map(\.number))
            }
            let hashes = FileFingerprint.contentHashes(of: files)
            let changedFiles = state.withLock { state in
                state.fingerprints[group.name] = fingerprint
                defer { state.hashes[group.name] = hashes }
                // Without earlier hashes every file counts as changed; the reload then finds
                // which values, if any, really changed.
                guard var previous = state.hashes[group.name] else { return files.sorted() }
                Self.settleOwnWrites(
                    &state, previous: &previous, hashes: hashes, finishedBeforeHashing: finishedBeforeHashing)
                return FileFingerprint.changedFiles(from: previous, to: hashes)
            }
            if !changedFiles.isEmpty { changed[group.name] = changedFiles }
        }
        guard !changed.isEmpty, !state.withLock({ $0.isStopped }) else { return }
        onChange(changed)
    }

    /// Runs a check after the debounce, restarting the wait on every new event.
    private func scheduleCheck() {
        let item = DispatchWorkItem { [weak self] in self?.check(force: true) }
        let previous = state.withLock { state -> DispatchWorkItem? in
            defer { state.pendingCheck = item }
            return state.pendingCheck
        }
        previous?.cancel()
        let nanoseconds = Int(
            debounce.components.seconds * 1_000_000_000 + debounce.components.attoseconds / 1_000_000_000)
        queue.asyncAfter(deadline: .now() + .nanoseconds(nanoseconds), execute: item)
    }

    private func makePollTimer(every interval: Duration) -> any DispatchSourceProtocol {
        let timer = DispatchSource.makeTimerSource(queue: queue)
        let milliseconds = Int(interval.wholeMilliseconds)
        timer.schedule(deadline: .now() + .milliseconds(milliseconds), repeating: .milliseconds(max(milliseconds, 10)))
        timer.setEventHandler { [weak self] in self?.check(force: false) }
        return timer
    }

    #if os(Linux)
        /// An inotify descriptor watching every group's directories, read by a dispatch source.
        private func makeNotificationSource() -> (any DispatchSourceProtocol)? {
            let descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
            guard descriptor >= 0 else { return nil }
            let mask =
                UInt32(IN_CREATE | IN_DELETE | IN_MODIFY | IN_CLOSE_WRITE | IN_MOVED_FROM | IN_MOVED_TO | IN_ATTRIB)
                | UInt32(IN_DELETE_SELF | IN_MOVE_SELF)
            var watched = 0
            for directory in Set(groups.flatMap(\.directories))
            where inotify_add_watch(descriptor, directory, mask) >= 0 {
                watched += 1
            }
            guard watched > 0 else {
                close(descriptor)
                return nil
            }
            let source = DispatchSource.makeReadSource(fileDescriptor: descriptor, queue: queue)
            source.setEventHandler { [weak self] in
                Self.drain(descriptor)
                self?.scheduleCheck()
            }
            source.setCancelHandler { close(descriptor) }
            return source
        }

        /// Reads and discards pending events; which file changed does not matter, the check decides.
        private static func drain(_ descriptor: Int32) {
            var buffer = [UInt8](repeating: 0, count: 4096)
            while buffer.withUnsafeMutableBytes({ read(descriptor, $0.baseAddress, $0.count) }) > 0 {}
        }
    #endif
}

import Dispatch
import EnsignSupport
import EnsignYAML

/// An overlay file the library writes: the user's preferences or persisted debug overrides.
///
/// Writes are durable (temporary file, fsync, rename, fsync of the directory), coalesced (a
/// storm of changes costs a few disk writes, and the last value always reaches disk), and
/// merged under an advisory lock: each write re-reads the file and changes only the keys this
/// process changed, so two processes writing the same file never lose each other's keys.
/// Keys no definition knows are kept as they are. A file that cannot be parsed is never
/// overwritten: it is first set aside as `<name>.corrupt-<time>` and reported.
///
/// A write that holds only this process's changes on top of what it last knew the file to
/// hold is announced to the context's file watcher (``watch(with:)``), so it is not read back
/// as a reload; a write that folded in another process's changes is left for the watcher to
/// find, and the reload applies those.
final class PersistentOverlayFile: Sendable {
    /// Which section of the file a key belongs in.
    enum Section: String, Sendable {
        case flags
        case preferences
    }

    /// What loading found.
    struct Loaded: Sendable {
        var values: [String: LocatedValue] = [:]
        /// Everything the file holds now (after setting an unusable file aside: what was
        /// written back), by key, defined or not.
        var onDisk: [String: JSONValue] = [:]
        var diagnostics: [Diagnostic] = []
        /// Where an unusable file was moved, if it was.
        var setAsidePath: String?
        /// Why the file's directory is not safe to use, when it is not: then nothing was read
        /// or written there, and the context refuses to start.
        var refusal: Diagnostic?
    }

    let path: String
    let coalescingDelay: DispatchTimeInterval
    private let queue: DispatchQueue
    private let state = LockedState(State())
    private let problemHandler = LockedState<LockedCallback<Diagnostic>?>(nil)
    private let outcomeHandler = LockedState<LockedCallback<PersistenceError?>?>(nil)
    private let watcher = LockedState(WeakFileWatcher())

    private struct State {
        /// Changes not yet on disk, by key: a value to write, or `nil` to remove the key.
        var pending: [String: (section: Section, value: JSONValue?)] = [:]
        /// Changes taken from `pending` by a write that has not finished: still not on disk,
        /// so a re-read must still lay them over the file.
        var inFlight: [String: (section: Section, value: JSONValue?)] = [:]
        /// Whether a coalesced background write is scheduled and has not started. Only that
        /// write clears it, so there is never more than one scheduled: a write flushed at once
        /// (a persisted `setOverride`) leaves the scheduled one to find nothing to do, instead
        /// of letting every such write schedule another (each cost libdispatch a timer).
        var isWriteScheduled = false
        /// Disk writes done, for tests and diagnostics.
        var writeCount = 0
        /// What the file held when this object last read or wrote it, by section: what a
        /// write starts from when the file no longer parses, so that the values this app
        /// put there are not lost with the file that is set aside.
        var lastKnown: [String: [String: JSONValue]] = [:]
    }

    init(path: String, coalescingDelay: DispatchTimeInterval = .milliseconds(50)) {
        self.path = path
        self.coalescingDelay = coalescingDelay
        queue = DispatchQueue(label: "ensign.persistence")
    }

    /// Where problems found while writing in the background are reported (the context's log).
    func onProblem(_ handler: @escaping @Sendable (Diagnostic) -> Void) {
        problemHandler.withLock { $0 = LockedCallback(handler) }
    }

    /// Where the outcome of every disk write is reported: `nil` once a write succeeded, the
    /// error when one failed (the context's status shows it until a write succeeds).
    ///
    /// The handler runs on the thread that wrote, holding no lock of this file's.
    func onWriteOutcome(_ handler: @escaping @Sendable (PersistenceError?) -> Void) {
        outcomeHandler.withLock { $0 = LockedCallback(handler) }
    }

    /// Announces this file's own writes to `watcher` (the context's), which watches the file.
    func watch(with watcher: FileWatcher) {
        self.watcher.withLock { $0 = WeakFileWatcher(watcher: watcher) }
    }

    private func reportOutcome(_ outcome: PersistenceError?) {
        let handler = outcomeHandler.withLock { $0 }
        handler?.call(outcome)
    }

    private func reportProblem(_ diagnostic: Diagnostic) {
        let handler = problemHandler.withLock { $0 }
        handler?.call(diagnostic)
    }

    deinit {
        try? writePending()
    }

    // MARK: Reading

    /// Reads the file and checks it against `definitions`. Values of unknown keys are kept
    /// on disk but not returned; an unusable file is set aside and its usable values
    /// written back, so nothing the user had is lost and nothing invalid is applied.
    func load(definitions: DefinitionSet, loader: DefinitionLoader = DefinitionLoader()) -> Loaded {
        var loaded = Loaded()
        do throws(FileSystem.Failure) {
            try FileSystem.checkStateDirectory(FileSystem.parentDirectory(of: path))
        } catch {
            loaded.refusal = Diagnostic(.error, at: .unknown(path), error.description)
            return loaded
        }
        guard FileSystem.exists(path) else { return loaded }
        let source: ConfigSource
        do {
            source = try ConfigSource.file(path, limits: loader.limits)
        } catch {
            loaded.diagnostics.append(Diagnostic(error))
            setAside(&loaded, keeping: [:])
            return loaded
        }
        let (overlay, found) = loader.readOverlay(source, definitions: definitions)
        // Keys a newer app version defines are kept in the file; they are not a problem here.
        let problems = found.filter { $0.severity == .error }
        for section in [overlay.flags, overlay.preferences] {
            for (key, value) in section { loaded.values[key] = value }
        }
        loaded.onDisk = Self.everything(in: overlay).mapValues(\.value)
        loaded.diagnostics = problems
        let sections = Self.sections(of: overlay)
        state.withLock { $0.lastKnown = sections }
        if !problems.isEmpty { setAside(&loaded, keeping: sections) }
        return loaded
    }

    /// The valid values of an overlay by section, defined keys or not.
    private static func sections(of overlay: Overlay) -> [String: [String: JSONValue]] {
        [
            Section.flags.rawValue: overlay.flags.merging(overlay.ignoredFlags) { $1 }.mapValues(\.value),
            Section.preferences.rawValue: overlay.preferences.merging(overlay.ignoredPreferences) { $1 }
                .mapValues(\.value),
        ]
    }

    /// Every value of an overlay by key: both sections, defined keys or not.
    private static func everything(in overlay: Overlay) -> [String: LocatedValue] {
        var values = overlay.ignoredFlags.merging(overlay.ignoredPreferences) { $1 }
        for section in [overlay.flags, overlay.preferences] {
            for (key, value) in section { values[key] = value }
        }
        return values
    }

    /// Reads the file again while the app runs: everything it holds by key, with this
    /// process's changes that are not on disk yet laid over it; or the problems, when it does
    /// not parse or a value does not fit its definition. Never sets the file aside.
    ///
    /// Taken under the file's lock, so no write of ours (or another process's) is half done.
    func reread(
        definitions: DefinitionSet, loader: DefinitionLoader = .whileRunning
    ) -> Result<[String: LocatedValue], ContextLoader.ReloadFailure> {
        let failure = { (problems: [Diagnostic]) in
            ContextLoader.ReloadFailure(diagnostics: problems, files: [self.path])
        }
        do {
            return try FileSystem.withExclusiveLock(for: path) {
                () throws(FileSystem.Failure) -> Result<[String: LocatedValue], ContextLoader.ReloadFailure> in
                let unwritten = pendingValues
                var values: [String: LocatedValue] = [:]
                if FileSystem.exists(path) {
                    let source: ConfigSource
                    do throws(YAMLError) {
                        source = try ConfigSource.file(path, limits: loader.limits)
                    } catch {
                        return .failure(failure([Diagnostic(error)]))
                    }
                    let (overlay, found) = loader.readOverlay(source, definitions: definitions)
                    let problems = found.filter(\.isError)
                    guard problems.isEmpty else { return .failure(failure(problems)) }
                    values = Self.everything(in: overlay)
                    state.withLock { $0.lastKnown = Self.sections(of: overlay) }
                } else {
                    state.withLock { $0.lastKnown = [:] }
                }
                for (key, value) in unwritten { values[key] = value.map { LocatedValue($0, at: .unknown(path)) } }
                return .success(values)
            }
        } catch {
            return .failure(failure([Diagnostic(.error, at: .unknown(path), "\(error)")]))
        }
    }

    /// Moves the file aside and writes `values` back to `path`.
    private func setAside(_ loaded: inout Loaded, keeping sections: [String: [String: JSONValue]]) {
        do {
            let aside = try FileSystem.withExclusiveLock(for: path) { () throws(FileSystem.Failure) -> String in
                try replaceKeepingAside(with: sections, removingWhenEmpty: true)
            }
            loaded.setAsidePath = aside
            let location = SourcePosition(file: path, line: 1, column: 1)
            loaded.diagnostics.append(
                Diagnostic(
                    .warning, at: location,
                    "the file had problems, so it was kept aside as \(aside) and its valid values were written back;"
                        + " nothing was applied from the invalid entries"))
        } catch {
            loaded.diagnostics.append(Diagnostic(.error, at: .unknown(path), "\(error)"))
        }
    }

    /// Keeps the file's content as `<path>.corrupt-<time>` and puts `sections` in its place.
    /// The old content leaves `path` only once the new one is on disk: when the write fails
    /// (a full disk), the file stays as it was and no copy is left behind.
    private func replaceKeepingAside(
        with sections: [String: [String: JSONValue]], removingWhenEmpty: Bool
    ) throws(FileSystem.Failure) -> String {
        let aside = try FileSystem.keepAside(path)
        do throws(FileSystem.Failure) {
            if removingWhenEmpty, !sections.values.contains(where: { !$0.isEmpty }) {
                try FileSystem.remove(path)
            } else {
                try write(sections)
            }
        } catch {
            FileSystem.restore(aside, to: path)
            throw error
        }
        return aside
    }

    // MARK: Writing

    /// Records changes and schedules a coalesced write in the background (see
    /// ``flush()`` for a write that returns once they are on disk).
    func update(_ changes: [String: (section: Section, value: JSONValue?)]) {
        let shouldSchedule = state.withLock { state in
            for (key, change) in changes { state.pending[key] = change }
            guard !state.isWriteScheduled else { return false }
            state.isWriteScheduled = true
            return true
        }
        guard shouldSchedule else { return }
        queue.asyncAfter(deadline: .now() + coalescingDelay) { [weak self] in
            guard let self else { return }
            self.state.withLock { $0.isWriteScheduled = false }
            do {
                try self.writePending()
            } catch {
                self.reportProblem(Diagnostic(.error, at: .unknown(self.path), "\(error)"))
            }
        }
    }

    /// Writes pending changes now; returns when they are on disk.
    ///
    /// Writers that call it at the same time share disk writes: writes run one at a time, and
    /// a write takes every change recorded before it started, so a caller whose change an
    /// earlier write already took returns once that write is done. It throws when the write
    /// that took the caller's changes (or, after a failure, its retry) failed.
    func flush() throws(PersistenceError) {
        let result = queue.sync { Result { () throws(FileSystem.Failure) in try writePending() } }
        do {
            try result.get()
        } catch {
            throw PersistenceError(path: path, message: error.description)
        }
    }

    /// The changes not yet written (reloads lay them over what is on disk).
    var pendingValues: [String: JSONValue?] {
        state.withLock { state in state.inFlight.merging(state.pending) { $1 }.mapValues(\.value) }
    }

    var writeCount: Int { state.withLock { $0.writeCount } }

    private func writePending() throws(FileSystem.Failure) {
        let pending = state.withLock { state in
            defer {
                state.inFlight.merge(state.pending) { $1 }
                state.pending.removeAll()
            }
            return state.pending
        }
        guard !pending.isEmpty else { return }
        defer { state.withLock { $0.inFlight.removeAll() } }
        do throws(FileSystem.Failure) {
            try FileSystem.withExclusiveLock(for: path) { () throws(FileSystem.Failure) in
                var (sections, unreadable) = readSectionsForMerge()
                // Only this process's changes on top of what it last knew: the watcher need not
                // read the result back. Anything else on disk is news the reload must apply.
                let holdsOnlyOwnChanges = state.withLock { Self.sameValues(sections, $0.lastKnown) }
                for (key, change) in pending {
                    sections[Section.flags.rawValue]?[key] = nil
                    sections[Section.preferences.rawValue]?[key] = nil
                    if let value = change.value { sections[change.section.rawValue, default: [:]][key] = value }
                }
                if let unreadable {
                    let aside = try replaceKeepingAside(with: sections, removingWhenEmpty: false)
                    reportProblem(
                        Diagnostic(
                            .warning, at: unreadable.location,
                            "\(unreadable.message); the file was kept aside as \(aside) instead of being overwritten,"
                                + " and the values this app last knew it to hold were written back"))
                } else {
                    try write(sections, announcing: holdsOnlyOwnChanges)
                }
                state.withLock { $0.lastKnown = sections }
            }
        } catch {
            // Keep the changes so the next attempt (or flush) writes them.
            state.withLock { state in
                for (key, change) in pending where state.pending[key] == nil { state.pending[key] = change }
            }
            reportOutcome(PersistenceError(path: path, message: error.description))
            throw error
        }
        state.withLock { $0.writeCount += 1 }
        reportOutcome(nil)
    }

    /// What is on disk now, by section, to merge a write into. For a file that does not parse
    /// (returned as `unreadable`: the writer keeps it aside, never overwrites it) and for an
    /// emptied file, what the file held when this object last read or wrote it.
    private func readSectionsForMerge() -> (sections: [String: [String: JSONValue]], unreadable: YAMLError?) {
        guard FileSystem.exists(path) else { return ([:], nil) }
        let root: YAMLNode?
        do {
            root = try YAMLParser().documents(contentsOf: path).first
        } catch {
            return (state.withLock { $0.lastKnown }, error)
        }
        // An emptied file (an editor's truncate before its write, or a truncation) holds
        // nothing to merge with: a reload treats it as failed, so the write does not take it
        // for "everything removed" either.
        guard let root else { return (state.withLock { $0.lastKnown }, nil) }
        var sections: [String: [String: JSONValue]] = [:]
        for entry in root.mappingEntries ?? [] {
            guard let name = entry.key.scalarText, case .object(let values) = JSONValue(entry.value) else { continue }
            sections[name] = values
        }
        return (sections, nil)
    }

    /// Whether two files' sections hold the same values (an absent section is an empty one).
    private static func sameValues(_ a: [String: [String: JSONValue]], _ b: [String: [String: JSONValue]]) -> Bool {
        a.filter { !$0.value.isEmpty } == b.filter { !$0.value.isEmpty }
    }

    /// Replaces the file with `sections`; `announcing` tells the context's watcher first that
    /// these bytes are its own.
    private func write(_ sections: [String: [String: JSONValue]], announcing: Bool = false) throws(FileSystem.Failure) {
        var entries: [(String, YAMLNode)] = []
        for name in sections.keys.sorted() {
            guard let values = sections[name], !values.isEmpty else { continue }
            entries.append((name, .mapping(values.keys.sorted().map { ($0, values[$0]!.yamlNode) })))
        }
        let text: String
        do {
            text = entries.isEmpty ? "{}\n" : try YAMLEmitter().text(for: .mapping(entries))
        } catch {
            throw FileSystem.Failure(description: "cannot encode YAML for \(path): \(error.message)")
        }
        let bytes = Array(text.utf8)
        let announcedTo = announcing ? watcher.withLock { $0.watcher } : nil
        let announced = announcedTo?.expectOwnWrite(of: path, contents: bytes)
        do throws(FileSystem.Failure) {
            try FileSystem.writeAtomically(bytes, to: path)
        } catch {
            if let announced { announcedTo?.ownWriteFinished(announced, succeeded: false) }
            throw error
        }
        if let announced { announcedTo?.ownWriteFinished(announced, succeeded: true) }
    }
}

/// The context's file watcher, without keeping it alive: the context's store does.
private struct WeakFileWatcher: Sendable {
    weak var watcher: FileWatcher?
}

/// Writing the preferences or overrides file failed; the values stay in force in memory.
public struct PersistenceError: Error, Sendable, CustomStringConvertible {
    /// The file.
    public var path: String
    /// What went wrong.
    public var message: String

    /// The message.
    public var description: String { message }
}

extension DefinitionLoader {
    /// The loader for files read again while the app runs: an emptied file is an error.
    static var whileRunning: DefinitionLoader {
        var loader = DefinitionLoader()
        loader.emptyOverlaySeverity = .error
        return loader
    }
}

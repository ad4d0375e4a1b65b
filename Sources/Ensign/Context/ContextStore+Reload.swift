/// Which files a reload reads again.
struct ReloadRequest: Sendable {
    /// The definitions side: the definitions, the environment overlay and the deployment files.
    enum Definitions: Sendable, Equatable {
        /// Not read.
        case none
        /// Read, naming no file in particular (an explicit `reload()`).
        case all
        /// Read because these files changed (from the watcher).
        case changed([String])
    }

    var definitions: Definitions
    var preferencesFile: Bool
    var overridesFile: Bool

    /// Every file (an explicit `reload()`).
    static let everything = ReloadRequest(definitions: .all, preferencesFile: true, overridesFile: true)
}

extension ContextStore {
    /// Reads the requested files again and applies what they hold as one transaction.
    ///
    /// The files are read outside the writer lock (a slow parse holds up no write); the
    /// result replaces only the layers that were read, applied to the state as it is when
    /// the reload commits: overrides, preferences, scope overrides and fleet values written
    /// meanwhile stay. A part that fails (errors in a definitions-side file, a persisted file
    /// that does not parse) changes nothing of its own, marks the context degraded and is
    /// logged; the parts that read cleanly are still applied.
    ///
    /// - Returns: the diagnostics of this reload (empty when everything is clean).
    @discardableResult
    func reload(_ request: ReloadRequest) -> [Diagnostic] {
        guard let loader else { return [] }
        return reloadLock.withLock { _ in
            reloadCount.add(1, ordering: .relaxed)
            // Only reloads change the definitions, and they are serialised by `reloadLock`,
            // so the definitions read here are still in force when this one commits.
            let definitions = inputs.layout.definitions
            var read = ReadFiles()
            if request.definitions != .none {
                // After a failed read of the definitions side, the files that made it fail are
                // still unapplied, whichever file changed now: read them all again, so a fix
                // of an overlay alone cannot put it in force against definitions that have
                // changed on disk since (a lost reload).
                let lastReadFailed = tree.writer.withLock { $0.problems[.definitions] != nil }
                let changed: [String]? =
                    if case .changed(let files) = request.definitions, !lastReadFailed { files } else { nil }
                read.definitions = loader.readDefinitionLayers(changedFiles: changed, definitions: definitions)
            }
            let current = (try? read.definitions?.get().layout?.definitions) ?? definitions
            // Only an outside edit gets here (the context's own writes are announced to the
            // watcher and not read back), but the app may write while the file is read: every
            // write counted so far is in the file or in its pending changes, which the re-read
            // lays over it; later ones are newer than what it reads, and stay.
            read.writesBeforeRead = tree.writer.withLock { ($0.preferencesWrites.count, $0.overridesWrites.count) }
            if request.preferencesFile, let file = loader.preferencesFile {
                read.preferences = loader.reread(file, definitions: current)
            }
            if request.overridesFile, let file = loader.overridesFile {
                read.overrides = loader.reread(file, definitions: current)
            }
            return apply(read)
        }
    }

    /// What a reload read, part by part (`nil`: not read).
    private struct ReadFiles {
        var definitions: Result<ContextLoader.DefinitionLayers, ContextLoader.ReloadFailure>?
        var preferences: Result<[String: LocatedValue], ContextLoader.ReloadFailure>?
        var overrides: Result<[String: LocatedValue], ContextLoader.ReloadFailure>?
        /// This context's write counts of the preferences and overrides files before they were read.
        var writesBeforeRead: (preferences: UInt64, overrides: UInt64) = (0, 0)
    }

    private func apply(_ read: ReadFiles) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        var files: [String] = []
        var failures: [(RootState.ProblemArea, ContextLoader.ReloadFailure)] = []
        var layers: ContextLoader.DefinitionLayers?
        switch read.definitions {
        case .success(let read):
            layers = read
            diagnostics += read.diagnostics
            files += read.files
        case .failure(let failure): failures.append((.definitions, failure))
        case nil: break
        }
        var persisted: [(RootState.ProblemArea, [String: LocatedValue], UInt64)] = []
        for (area, result, file, writesBeforeRead) in [
            (
                RootState.ProblemArea.preferences, read.preferences, loader?.preferencesFile,
                read.writesBeforeRead.preferences
            ),
            (.overrides, read.overrides, loader?.overridesFile, read.writesBeforeRead.overrides),
        ] {
            guard let result, let file else { continue }
            switch result {
            case .success(let values):
                persisted.append((area, values, writesBeforeRead))
                files.append(file.path)
            case .failure(let failure): failures.append((area, failure))
            }
        }
        if let layers, let loader {
            // A reload of overlays alone keeps the definitions' own warnings (rule errors among them).
            let kept = layers.layout == nil ? loadDiagnostics.filter { !loader.source.isOverlay($0.location.file) } : []
            loadDiagnostics = (kept + layers.diagnostics).sortedByLocation()
        }
        if !failures.isEmpty { failedReloadCount.add(1, ordering: .relaxed) }
        // Notes (a deleted deployment file) are logged with the transaction that applied them.
        let notes = layers?.diagnostics.filter { $0.severity == .note } ?? []
        commit(cause: .reload(files: files), diagnostics: notes) { state -> AffectedKeys in
            for (area, failure) in failures {
                state.setProblem(area, failure.diagnostics)
                _ = changeLog.record(
                    cause: .failedReload(files: failure.files), context: label, changes: [],
                    diagnostics: failure.diagnostics)
            }
            var affected = AffectedKeys.some([])
            if let layers {
                state.setProblem(.definitions, nil)
                affected = affected.union(state.applyDefinitionLayers(layers))
            }
            for (area, values, writesBeforeRead) in persisted {
                state.setProblem(area, nil)
                affected = affected.union(
                    .some(state.applyPersistedFile(area, values, writesBeforeRead: writesBeforeRead)))
            }
            return affected
        }
        return failures.flatMap(\.1.diagnostics) + diagnostics
    }
}

extension RootState {
    /// Puts the definitions side read by a reload in force; returns the keys it may change.
    mutating func applyDefinitionLayers(_ layers: ContextLoader.DefinitionLayers) -> ContextStore.AffectedKeys {
        let before = inputs
        inputs.environmentOverlay = layers.environmentOverlay
        inputs.deploymentOverlays = layers.deploymentOverlays
        guard let layout = layers.layout else {
            return .some(Self.overlayKeys(before) + Self.overlayKeys(inputs))
        }
        inputs.layout = layout
        inputs.fleet = inputs.fleet?.rechecked(against: layout)
        // A key defined only now takes its persisted value, as it would at the next start;
        // keys already written in memory keep the latest write.
        for (key, value) in overridesOnDisk
        where inputs.overrides[key] == nil && before.layout.slot(for: key) == nil && layout.slot(for: key) != nil {
            inputs.overrides[key] = AttributedValue(value, actor: ContextLoader.overridesActor, isPersisted: true)
        }
        for (key, value) in preferencesOnDisk
        where inputs.preferences[key] == nil && before.layout.slot(for: key) == nil && layout.slot(for: key) != nil {
            inputs.preferences[key] = AttributedValue(value, actor: ContextLoader.preferencesActor, isPersisted: true)
        }
        return .all
    }

    /// Applies a persisted file read again: each key whose value in the file differs from
    /// what this context last knew it to hold is someone else's write, applied as the latest
    /// write to that key; the other keys keep what was written in memory since. A key this
    /// context wrote after `writesBeforeRead` (its write count when the file was read) is newer
    /// than what was read and stays as it is. Returns the keys applied.
    mutating func applyPersistedFile(
        _ area: ProblemArea, _ values: [String: LocatedValue], writesBeforeRead: UInt64
    ) -> [String] {
        var known = area == .overrides ? overridesOnDisk : preferencesOnDisk
        let writes = area == .overrides ? overridesWrites : preferencesWrites
        let actor = area == .overrides ? ContextLoader.overridesActor : ContextLoader.preferencesActor
        var applied: [String] = []
        for key in Set(known.keys).union(values.keys).sorted() where (writes.lastWrite[key] ?? 0) <= writesBeforeRead {
            let value = values[key]
            guard known[key] != value?.value else { continue }
            applied.append(key)
            known[key] = value?.value
            let attributed = value.map {
                AttributedValue($0.value, actor: actor, location: $0.location, isPersisted: true)
            }
            if area == .overrides { inputs.overrides[key] = attributed } else { inputs.preferences[key] = attributed }
        }
        if area == .overrides { overridesOnDisk = known } else { preferencesOnDisk = known }
        return applied
    }

    /// Every key an input's environment and deployment overlays set.
    private static func overlayKeys(_ inputs: ContextInputs) -> [String] {
        ([inputs.environmentOverlay].compactMap { $0 } + inputs.deploymentOverlays).flatMap { overlay in
            Array(overlay.flags.keys) + Array(overlay.preferences.keys)
        }
    }
}

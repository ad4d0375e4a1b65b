import Ensign
import EnsignSupport

/// Answers every control request: the one place an operation is dispatched. Writes go
/// through the same `AppContext` methods app code calls, with the actor `cli`, so values are
/// validated exactly as the API validates them; `watch`, `stop` and `status` act on the
/// connection through the ``RequestConnection`` the server loop lends for the request.
struct RequestHandler: Sendable {
    let context: AppContext
    let options: ControlServerOptions
    let pid: Int32
    let startedAt = WallClockTime.now()

    /// How many connections may watch at once: a quarter of the slots (at least one) stay
    /// for requests, so watchers never lock `ensign set` out.
    static func watcherLimit(maximumConnections: Int) -> Int {
        max(0, maximumConnections - max(1, maximumConnections / 4))
    }

    var hello: ServerHello {
        ServerHello(
            app: options.appName, pid: pid, environment: context.environment, ensignVersion: EnsignVersion.current,
            protocolVersion: ControlProtocol.version)
    }

    /// Whether writes are refused here: the production environment, unless allowed.
    var refusesWrites: Bool {
        Self.isProduction(context.environment) && !options.allowsWritesInProduction
    }

    /// Whether `environment` is production, in any case (`Production` must not bypass the guard).
    static func isProduction(_ environment: String) -> Bool {
        environment.lowercased() == "production"
    }

    func result(for operation: ControlOperation, on connection: some RequestConnection) throws(ControlError)
        -> JSONValue
    {
        if operation.isWrite, refusesWrites {
            throw ControlError(
                .forbidden,
                "writes are refused in the production environment; to allow them, start the control server with"
                    + " ControlServerOptions(appName: \"\(options.appName)\", allowsWritesInProduction: true)")
        }
        let actor = ControlProtocol.actor
        switch operation {
        case .hello(let version, _):
            guard version == ControlProtocol.version else {
                throw ControlError(
                    .unsupportedVersion,
                    "this server speaks protocol \(ControlProtocol.version) (Ensign \(EnsignVersion.current)), not"
                        + " \(version); use an ensign tool of the same version as the app")
            }
            return try encode(hello)
        case .list(let prefix):
            let overrides = context.overrides
            let keys = context.definitions.keys.filter { prefix.map($0.hasPrefix) ?? true }
            return try encode(["keys": keys.map { report(forKey: $0, overrides: overrides) }])
        case .get(let key):
            return try encode(report(forKey: try definedKey(key), overrides: context.overrides))
        case .explain(let key):
            return try encode(ExplanationReport(context.explain(keyNamed: try definedKey(key))))
        case .set(let key, let value, let persist):
            try write { () throws(ContextWriteError) in
                try context.setOverride(keyNamed: key, to: value, actor: actor, persist: persist)
            }
            return try encode(report(forKey: key, overrides: context.overrides))
        case .toggle(let key):
            try write { () throws(ContextWriteError) in _ = try context.toggle(keyNamed: key, actor: actor) }
            return try encode(report(forKey: key, overrides: context.overrides))
        case .reset(let key):
            let fullKey = toolDetails(forKeyNamed: key).key
            let hasOverride = context.overrides[fullKey] != nil
            if !hasOverride { _ = try definedKey(key) }
            context.removeOverride(keyNamed: key, actor: actor)
            return ["removed": .array(hasOverride ? [.string(fullKey)] : [])]
        case .resetAll:
            let keys = context.overrides.keys.sorted()
            context.removeAllOverrides(actor: actor)
            return ["removed": .array(keys.map(JSONValue.string))]
        case .log(let limit):
            let transactions = context.changeLog.suffix(limit ?? 50)
            return try encode(["transactions": transactions.map(TransactionReport.init)])
        case .watch(let keys):
            let fullKeys = try keys.map { (keys) throws(ControlError) in
                var full: [String] = []
                for key in keys { full.append(try definedKey(key)) }
                return full
            }
            let watchers = connection.otherWatcherCount
            guard watchers < Self.watcherLimit(maximumConnections: options.maximumConnections) else {
                throw ControlError(
                    .busy,
                    "the app already has \(watchers) watching connections; the rest are kept for requests."
                        + " Stop a watch (ensign watch) or try again later")
            }
            connection.startWatching(keys: fullKeys.map(Set.init))
            return ["keys": fullKeys.map { .array($0.map(JSONValue.string)) } ?? .null]
        case .stop:
            let wasWatching = connection.isWatching
            connection.stopWatching()
            return ["stopped": .bool(wasWatching)]
        case .status:
            return try status(
                connections: connection.connectionCount,
                watchers: connection.otherWatcherCount + (connection.isWatching ? 1 : 0))
        case .stats(let keys):
            return try stats(keys: keys)
        }
    }

    private func stats(keys: [String]?) throws(ControlError) -> JSONValue {
        guard let counts = context.evaluationCounts else {
            throw ControlError(
                .unavailable,
                "the app does not count evaluations; to count them, call context.countEvaluations() on its context"
                    + " when it starts (before ControlServer.start)")
        }
        var fullKeys: [String]?
        if let keys {
            fullKeys = []
            for key in keys { fullKeys?.append(try definedKey(key)) }
        }
        return try encode(StatsReport(counts, keys: fullKeys, defined: context.definitions.keys))
    }

    private func status(connections: Int, watchers: Int) throws(ControlError) -> JSONValue {
        let status = context.status
        return try encode(
            StatusReport(
                server: hello, label: context.label, isDegraded: status.isDegraded,
                degradedSince: status.since?.description, diagnostics: status.diagnostics.map(\.description),
                flagProblems: status.flagProblems.map(\.description), keyCount: context.definitions.count,
                overrideCount: context.overrides.count,
                acceptsWrites: !refusesWrites, connections: connections, watchers: watchers,
                startedAt: startedAt.description, details: options.statusDetails?()))
    }

    /// The full key for `key` when a definition has it; `NOT_FOUND` (with a suggestion) otherwise.
    func definedKey(_ key: String) throws(ControlError) -> String {
        let fullKey = toolDetails(forKeyNamed: key).key
        guard context.definitions[fullKey] == nil else { return fullKey }
        let suggestion = Suggestions.closest(to: fullKey, among: context.definitions.keys)
        throw ControlError(.notFound, ContextWriteError.undefinedKey(fullKey, suggestion: suggestion).description)
    }

    func report(forKey key: String, overrides: [String: AttributedValue]) -> KeyReport {
        let details = toolDetails(forKeyNamed: key)
        let definition = context.definitions[details.key]
        let override = overrides[details.key]
        return KeyReport(
            key: details.key, kind: definition?.kind.rawValue, type: definition?.type.rawValue, value: details.value,
            variant: details.variant, reason: details.reason.rawValue, errorCode: details.errorCode?.rawValue,
            errorMessage: details.errorMessage, metadata: details.metadata, source: SourceReport(details.source),
            isOverridden: override != nil, isPersisted: override?.isPersisted ?? false,
            description: definition?.summary)
    }

    /// A key's details as the tools see them: from the current snapshot, which runs no hooks,
    /// so that `ensign list` is not an evaluation by the app (counted, exported, or taken for
    /// use by `ensign debt`).
    private func toolDetails(forKeyNamed key: String) -> ResolutionDetails<JSONValue> {
        context.untrackedSnapshot.details(forKeyNamed: key)
    }

    private func write(_ body: () throws(ContextWriteError) -> Void) throws(ControlError) {
        do {
            try body()
        } catch {
            switch error {
            case .undefinedKey: throw ControlError(.notFound, error.description)
            case .invalidValue, .notAPreference, .notToggleable: throw ControlError(.invalidValue, error.description)
            case .persistenceUnavailable: throw ControlError(.unavailable, error.description)
            case .notPersisted: throw ControlError(.notPersisted, error.description)
            }
        }
    }

    private func encode(_ value: some Encodable) throws(ControlError) -> JSONValue {
        do {
            return try JSONValueEncoder().encode(value)
        } catch {
            throw ControlError(.internalError, "could not encode the result: \(error)")
        }
    }
}

/// What one request may see of the server's connections and do to its own: the loop's side
/// of `watch`, `stop` and `status`, read only by those three (the counts walk every connection).
protocol RequestConnection {
    /// Connections open now, this one included.
    var connectionCount: Int { get }
    /// Connections watching now, this one excluded.
    var otherWatcherCount: Int { get }
    /// Whether this connection watches.
    var isWatching: Bool { get }
    /// Makes this connection watch `keys` (every key when `nil`), in place of any earlier watch.
    func startWatching(keys: Set<String>?)
    /// Ends this connection's watch, if any.
    func stopWatching()
}

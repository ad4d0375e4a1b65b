import Ensign
import EnsignSupport

/// Answers the operations that only read or write the app's context (everything but
/// `watch`, `stop` and `status`, which need the server's connection state). Writes go
/// through the same `AppContext` methods app code calls, with the actor `cli`, so values
/// are validated exactly as the API validates them.
struct RequestHandler: Sendable {
    let context: AppContext
    let options: ControlServerOptions
    let pid: Int32

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

    func result(for operation: ControlOperation) throws(ControlError) -> JSONValue {
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
            let fullKey = context.details(forKeyNamed: key).key
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
        case .watch, .stop, .status:
            throw ControlError(.internalError, "'\(operation.name)' is answered by the server loop")
        }
    }

    func status(connections: Int, watchers: Int, startedAt: WallClockTime) throws(ControlError) -> JSONValue {
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
        let fullKey = context.details(forKeyNamed: key).key
        guard context.definitions[fullKey] == nil else { return fullKey }
        let suggestion = Suggestions.closest(to: fullKey, among: context.definitions.keys)
        throw ControlError(.notFound, ContextWriteError.undefinedKey(fullKey, suggestion: suggestion).description)
    }

    func report(forKey key: String, overrides: [String: AttributedValue]) -> KeyReport {
        let details = context.details(forKeyNamed: key)
        let definition = context.definitions[details.key]
        let override = overrides[details.key]
        return KeyReport(
            key: details.key, kind: definition?.kind.rawValue, type: definition?.type.rawValue, value: details.value,
            variant: details.variant, reason: details.reason.rawValue, errorCode: details.errorCode?.rawValue,
            errorMessage: details.errorMessage, metadata: details.metadata, source: SourceReport(details.source),
            isOverridden: override != nil, isPersisted: override?.isPersisted ?? false,
            description: definition?.summary)
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

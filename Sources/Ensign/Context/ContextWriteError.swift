/// Why a write to a context was refused. Nothing changes when a write is refused, except with
/// ``notPersisted(key:path:reason:)``: the value is in force for this run but not saved.
public enum ContextWriteError: Error, Sendable, Hashable {
    /// No definition has this key.
    case undefinedKey(String, suggestion: String?)
    /// The value does not meet the key's type or constraints.
    case invalidValue(key: String, problem: ValueProblem)
    /// `setPreference` was called with a flag's key.
    case notAPreference(String)
    /// A flag that is not a bool cannot be toggled.
    case notToggleable(key: String, type: FlagType)
    /// `persist` was asked for, but the context has no overrides file.
    case persistenceUnavailable(key: String)
    /// The value is in force for this run, but saving it to `path` failed: it will not survive
    /// a restart unless a later save succeeds (each write retries; ``AppContext/status`` shows
    /// the problem until one does).
    case notPersisted(key: String, path: String, reason: String)
}

extension ContextWriteError: CustomStringConvertible {
    /// A sentence that says what was wrong and how to fix it.
    public var description: String {
        switch self {
        case .undefinedKey(let key, let suggestion):
            let hint = suggestion.map { "; did you mean '\($0)'?" } ?? "; define it in a definitions file first"
            return "no flag or preference '\(key)' is defined\(hint)"
        case .invalidValue(let key, let problem):
            return "'\(key)' value \(problem)"
        case .notAPreference(let key):
            return "'\(key)' is a flag, not a preference; set an override instead (setOverride)"
        case .notToggleable(let key, let type):
            return "'\(key)' is \(type.withArticle) flag; only bool flags can be toggled, set a value instead"
        case .persistenceUnavailable(let key):
            return "cannot persist the override of '\(key)': the context has no overrides file"
                + " (set AppContextConfiguration.overridesFile)"
        case .notPersisted(let key, let path, let reason):
            return "'\(key)' is set for this run, but saving it failed: \(reason); it is not in \(path) and will not"
                + " survive a restart (saving is retried with the next write; fix the file's permissions or free"
                + " disk space)"
        }
    }
}

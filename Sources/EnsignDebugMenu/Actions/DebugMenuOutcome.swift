/// What became of a debug menu's write: done, or refused by the app with its reason.
public enum DebugMenuOutcome: Equatable, Sendable {
    /// The write was made; the message says what it did.
    case done(String)
    /// The app refused the write (an invalid value, writes off in production); the message
    /// is the app's reason.
    case refused(String)

    /// The text a menu shows for the outcome: a refusal starts with ✗.
    public var message: String {
        switch self {
        case .done(let message): return message
        case .refused(let reason): return "✗ \(reason)"
        }
    }

    /// Whether the app refused the write.
    public var isRefused: Bool {
        if case .refused = self { return true }
        return false
    }
}

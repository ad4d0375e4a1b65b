/// Why a remote source cannot be created.
public enum OFREPRemoteError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The configuration cannot work; why.
    case invalidConfiguration(String)

    /// Why, in a sentence.
    public var description: String {
        switch self {
        case .invalidConfiguration(let reason): return "invalid remote source configuration: \(reason)"
        }
    }
}

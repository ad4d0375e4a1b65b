import Ensign

/// What the remote source has done so far, for waiters and tests.
struct RemoteProgress: Sendable {
    /// What the source last delivered (or holds from the cache before it is attached).
    var delivered = ProvidedValues()
    /// Every problem the context reported for the last delivery: flags the server could not
    /// evaluate, values the definitions refuse, keys the app does not define.
    var problems: [Diagnostic] = []
    /// Whether the values in force came from the cache, not (yet) from the server.
    var isServingCache = false
    /// Whether a request has reached the server since the source started (a 200 or a 304).
    var isSynced = false
    /// Whether an event stream is connected now.
    var isStreaming = false
    /// Responses with new values (200) delivered, across runs.
    var evaluations = 0
    /// Responses that said nothing changed (304), across runs.
    var notModified = 0
    /// Requests that failed, across runs.
    var failures = 0
    /// The last failure, in a sentence.
    var lastError: String?
    /// Whether the work loop has ended.
    var isStopped = false
}

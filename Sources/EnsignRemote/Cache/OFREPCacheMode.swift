/// How the remote source uses its cache file at start, as OFREP's ADR 0009 names the modes
/// (`../shared/ofrep/service/adrs/0009-local-storage-for-static-context-providers.md`).
///
/// ```swift
/// configuration.cacheFile = stateDirectory + "/remote-flags.json"
/// configuration.cacheMode = .networkFirst   // fresh values at start; the cache only when offline
/// ```
public enum OFREPCacheMode: String, Sendable, Hashable, CaseIterable {
    /// The cached evaluation is in force as `attach` returns, and the server's answer replaces
    /// it when it comes: an app never starts with code defaults it has had better values for.
    case localCacheFirst = "local-cache-first"
    /// `attach` waits for the server's answer (up to the request timeout). Only when the
    /// server cannot be reached, times out or answers 5xx or 429 does the cached evaluation
    /// come into force; a refusal (400, 401, 403) is reported and the cache is not used, since
    /// it would hide a configuration problem. Successful answers are still written to the file.
    case networkFirst = "network-first"
    /// No file is read or written, whatever ``OFREPRemoteConfiguration/cacheFile`` says.
    case disabled
}

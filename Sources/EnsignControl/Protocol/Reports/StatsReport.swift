import Ensign

/// How often the app evaluated its keys since it turned counting on
/// (`AppContext.countEvaluations()`): the result of `stats`.
///
/// `{"since": "2026-12-07T21:40:00.000Z", "totalEvaluations": 12, "undefinedKeyEvaluations": 0,
/// "keys": [KeyStats], "notEvaluated": ["payments.legacyRails"]}`
public struct StatsReport: Codable, Sendable, Hashable {
    /// When counting began, ISO 8601 in UTC.
    public var since: String
    /// Every evaluation counted, undefined keys included.
    public var totalEvaluations: Int
    /// Evaluations of keys no definition has, which are not counted by name.
    public var undefinedKeyEvaluations: Int
    /// The keys asked for (or every key evaluated at least once), sorted by name.
    public var keys: [KeyStats]
    /// The defined keys never evaluated since counting began (among those asked for), sorted.
    public var notEvaluated: [String]

    /// Creates a report.
    public init(
        since: String, totalEvaluations: Int, undefinedKeyEvaluations: Int, keys: [KeyStats], notEvaluated: [String]
    ) {
        self.since = since
        self.totalEvaluations = totalEvaluations
        self.undefinedKeyEvaluations = undefinedKeyEvaluations
        self.keys = keys
        self.notEvaluated = notEvaluated
    }
}

/// One key's evaluations in a ``StatsReport``.
public struct KeyStats: Codable, Sendable, Hashable {
    /// The full key.
    public var key: String
    /// How many times it was evaluated.
    public var evaluations: Int
    /// When it was last evaluated, ISO 8601 in UTC; `nil` when never.
    public var lastEvaluated: String?
    /// The evaluations by variant and reason, the most frequent first.
    public var outcomes: [OutcomeCount]

    /// Creates a key's stats.
    public init(key: String, evaluations: Int, lastEvaluated: String?, outcomes: [OutcomeCount]) {
        self.key = key
        self.evaluations = evaluations
        self.lastEvaluated = lastEvaluated
        self.outcomes = outcomes
    }

    /// How many evaluations gave one variant (or none) with one reason.
    public struct OutcomeCount: Codable, Sendable, Hashable {
        /// The variant, or `nil` for a value without one.
        public var variant: String?
        /// The reason (`STATIC`, `TARGETING_MATCH`, …).
        public var reason: String
        /// How many evaluations.
        public var count: Int

        /// Creates an outcome's count.
        public init(variant: String?, reason: String, count: Int) {
            self.variant = variant
            self.reason = reason
            self.count = count
        }
    }
}

extension StatsReport {
    /// The report of `counts` for `keys` (every key evaluated when `nil`), `defined` being the
    /// app's defined keys.
    init(_ counts: AppContext.EvaluationCounts, keys: [String]?, defined: [String]) {
        let shown = keys ?? counts.keys.keys.sorted()
        self.init(
            since: counts.since.description, totalEvaluations: counts.totalEvaluations,
            undefinedKeyEvaluations: counts.undefinedKeyEvaluations,
            keys: shown.map { KeyStats(key: $0, counts: counts[$0]) },
            notEvaluated: (keys ?? defined).filter { counts[$0] == nil }.sorted())
    }
}

extension KeyStats {
    init(key: String, counts: AppContext.EvaluationCounts.KeyCounts?) {
        let outcomes = (counts?.outcomes ?? [:]).map {
            OutcomeCount(variant: $0.key.variant, reason: $0.key.reason.rawValue, count: $0.value)
        }
        self.init(
            key: key, evaluations: counts?.evaluations ?? 0, lastEvaluated: counts?.lastEvaluated.description,
            outcomes: outcomes.sorted {
                ($1.count, $0.variant ?? "", $0.reason) < ($0.count, $1.variant ?? "", $1.reason)
            })
    }
}

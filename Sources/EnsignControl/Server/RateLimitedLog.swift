/// Passes log lines of one kind at most once per interval, and says how many it held back:
/// a client that reconnects in a loop must not flood the app's log.
struct RateLimitedLog {
    let interval: Duration
    private var lastLogged: ContinuousClock.Instant?
    private var heldBack = 0

    init(interval: Duration = .seconds(1)) {
        self.interval = interval
    }

    /// The line to log now for `message`, or `nil` when it is held back.
    mutating func line(_ message: String, now: ContinuousClock.Instant) -> String? {
        if let lastLogged, now - lastLogged < interval {
            heldBack += 1
            return nil
        }
        lastLogged = now
        defer { heldBack = 0 }
        return heldBack == 0 ? message : "\(message) (and \(heldBack) more like it since the last report)"
    }
}

extension Duration {
    /// Attoseconds in a millisecond.
    private static let attosecondsPerMillisecond: Int64 = 1_000_000_000_000_000

    /// The duration in whole milliseconds, rounded toward zero (saturating), for APIs that
    /// count milliseconds: Dispatch intervals, a poll period.
    package var wholeMilliseconds: Int64 {
        let (seconds, attoseconds) = components
        let (milliseconds, overflow) = seconds.multipliedReportingOverflow(by: 1000)
        let (total, carry) = milliseconds.addingReportingOverflow(attoseconds / Self.attosecondsPerMillisecond)
        guard !overflow, !carry else { return seconds < 0 ? .min : .max }
        return total
    }

    /// The duration in whole milliseconds, rounded up (saturating): a `poll(2)` timeout of
    /// this many milliseconds never ends before the duration has passed, so a loop waiting for
    /// a deadline does not wake just before it and spin.
    package var millisecondsRoundedUp: Int64 {
        let remainder = components.attoseconds % Self.attosecondsPerMillisecond
        let whole = wholeMilliseconds
        return remainder > 0 && whole < .max ? whole + 1 : whole
    }
}

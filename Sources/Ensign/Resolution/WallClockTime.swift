#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A moment in UTC, as seconds since 1970, printed in ISO 8601.
///
/// Ensign's core avoids Foundation; this is the small part of `Date` it needs for provenance
/// and the change log.
public struct WallClockTime: Sendable, Hashable, Comparable {
    /// Seconds since 1970-01-01T00:00:00Z.
    public var secondsSince1970: Double

    /// Creates a time.
    public init(secondsSince1970: Double) {
        self.secondsSince1970 = secondsSince1970
    }

    /// The current time.
    public static func now() -> WallClockTime {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return WallClockTime(secondsSince1970: Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9)
    }

    /// Earlier times sort first.
    public static func < (lhs: WallClockTime, rhs: WallClockTime) -> Bool {
        lhs.secondsSince1970 < rhs.secondsSince1970
    }
}

extension WallClockTime: CustomStringConvertible {
    /// `2026-11-29T14:03:07.123Z`.
    public var description: String {
        var seconds = time_t(secondsSince1970.rounded(.down))
        let milliseconds = Int((secondsSince1970 - Double(seconds)) * 1000)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func padded(_ value: Int, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: Swift.max(0, width - digits.count)) + digits
        }
        return "\(padded(Int(parts.tm_year) + 1900, 4))-\(padded(Int(parts.tm_mon) + 1, 2))-"
            + "\(padded(Int(parts.tm_mday), 2))T\(padded(Int(parts.tm_hour), 2)):\(padded(Int(parts.tm_min), 2)):"
            + "\(padded(Int(parts.tm_sec), 2)).\(padded(milliseconds, 3))Z"
    }
}

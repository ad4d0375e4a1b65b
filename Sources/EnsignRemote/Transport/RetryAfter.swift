import Ensign

/// Reads a `Retry-After` header (RFC 9110): a number of seconds (`120`) or an HTTP date
/// (`Wed, 21 Oct 2026 07:28:00 GMT`; OFREP's examples also use ISO 8601,
/// `2026-10-21T07:28:00Z`, which is read too).
enum RetryAfter {
    /// The longest wait obeyed (a day): a server's mistake must not silence the source for good.
    static let maximum = Duration.seconds(24 * 3600)

    /// How long to wait from `now`, or `nil` when the value is neither form; never negative,
    /// at most ``maximum``.
    static func delay(_ value: String, now: WallClockTime = .now()) -> Duration? {
        let text = value.trimmingPrefix(while: { $0 == " " || $0 == "\t" })
        if let seconds = Int(text.prefix(while: { $0 != " " && $0 != "\t" })), seconds >= 0 {
            return min(.seconds(seconds), maximum)
        }
        guard let date = httpDate(String(text)) ?? isoDate(String(text)) else { return nil }
        let remaining = date - now.secondsSince1970
        return min(.milliseconds(Int64(max(0, remaining) * 1000)), maximum)
    }

    /// `Wed, 21 Oct 2026 07:28:00 GMT` as seconds since 1970.
    static func httpDate(_ text: String) -> Double? {
        let parts = text.split(separator: " ")
        guard parts.count == 6, parts[5] == "GMT", let day = Int(parts[1]), let year = Int(parts[3]),
            let month = months.firstIndex(of: String(parts[2])).map({ $0 + 1 })
        else { return nil }
        return seconds(year: year, month: month, day: day, time: parts[4])
    }

    /// `2026-10-21T07:28:00Z` (whole seconds, UTC) as seconds since 1970.
    static func isoDate(_ text: String) -> Double? {
        guard text.hasSuffix("Z") else { return nil }
        let halves = text.dropLast().split(separator: "T")
        guard halves.count == 2 else { return nil }
        let date = halves[0].split(separator: "-")
        guard date.count == 3, let year = Int(date[0]), let month = Int(date[1]), let day = Int(date[2]) else {
            return nil
        }
        return seconds(year: year, month: month, day: day, time: halves[1].split(separator: ".")[0])
    }

    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    private static func seconds(year: Int, month: Int, day: Int, time: Substring) -> Double? {
        let clock = time.split(separator: ":").map { Int($0) }
        guard (1...12).contains(month), (1...31).contains(day), (1970...9999).contains(year), clock.count == 3,
            let hour = clock[0], let minute = clock[1], let second = clock[2], (0..<24).contains(hour),
            (0..<60).contains(minute), (0...60).contains(second)
        else { return nil }
        return Double(daysSince1970(year: year, month: month, day: day) * 86400 + hour * 3600 + minute * 60 + second)
    }

    /// Days from 1970-01-01 to a date of the proleptic Gregorian calendar (Howard Hinnant's
    /// days-from-civil algorithm).
    private static func daysSince1970(year: Int, month: Int, day: Int) -> Int {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = shiftedYear / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146097 + dayOfEra - 719468
    }
}

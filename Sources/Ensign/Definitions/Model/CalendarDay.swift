#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A day in the proleptic Gregorian calendar, as written `YYYY-MM-DD` in `expires:`.
package struct CalendarDay: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The year.
    package let year: Int
    /// The month, 1–12.
    package let month: Int
    /// The day of the month, 1–31.
    package let day: Int

    /// Parses `YYYY-MM-DD`; `nil` when the text is not a real day.
    package init?(_ text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
            (1...12).contains(month), day >= 1, day <= Self.daysIn(month: month, year: year)
        else { return nil }
        self.year = year
        self.month = month
        self.day = day
    }

    /// Today in UTC.
    package static func today() -> CalendarDay {
        var now = time(nil)
        var parts = tm()
        gmtime_r(&now, &parts)
        let text = String(format: parts.tm_year + 1900, parts.tm_mon + 1, parts.tm_mday)
        return CalendarDay(text)!
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// `YYYY-MM-DD`.
    package var description: String { String(format: Int32(year), Int32(month), Int32(day)) }

    /// Earlier days sort first.
    package static func < (lhs: CalendarDay, rhs: CalendarDay) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }
}

extension String {
    /// `YYYY-MM-DD` with zero padding, without Foundation's formatters.
    fileprivate init(format year: Int32, _ month: Int32, _ day: Int32) {
        self = "\(Self.padded(year, 4))-\(Self.padded(month, 2))-\(Self.padded(day, 2))"
    }

    private static func padded(_ value: Int32, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: Swift.max(0, width - digits.count)) + digits
    }
}

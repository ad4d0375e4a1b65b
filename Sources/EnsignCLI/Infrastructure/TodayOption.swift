import Ensign
import EnsignSupport
import EnsignTooling

/// The day commands compare `expires:` with: `--today YYYY-MM-DD` where a command takes it
/// (`ensign debt`), else the `ENSIGN_TODAY` environment variable, else today in UTC.
///
/// The variable pins the day for `ensign generate` (and so for the build plugin's warnings on
/// expired flags) and `ensign validate`, which take no such option: for tests, and for builds
/// that must not start warning on their own when a date passes.
enum TodayOption {
    static let variable = "ENSIGN_TODAY"

    /// The day `option` (the `--today` value, if the command takes one) or the variable names.
    static func day(option: String? = nil) throws(UsageError) -> CalendarDay {
        if let option {
            guard let day = CalendarDay(option) else {
                throw UsageError("--today must be a day written YYYY-MM-DD, such as 2027-06-30; found '\(option)'")
            }
            return day
        }
        guard let text = ProcessEnvironment.nonEmptyValue(variable) else { return .today() }
        guard let day = CalendarDay(text) else {
            throw UsageError("\(variable) must be a day written YYYY-MM-DD, such as 2027-06-30; found '\(text)'")
        }
        return day
    }

    /// A validator whose loader compares `expires:` with the day the variable names.
    static func validator() throws(UsageError) -> ConfigValidator {
        ConfigValidator(loader: DefinitionLoader(today: try day()))
    }
}

import EnsignSupport
import Testing

@Suite("Durations in milliseconds, as poll(2) and Dispatch count them")
struct DurationMillisecondsTests {
    @Test(
        "Whole milliseconds round toward zero; rounded up never falls short of the duration",
        arguments: [
            (Duration.zero, 0, 0), (.nanoseconds(1), 0, 1), (.microseconds(999), 0, 1), (.milliseconds(5), 5, 5),
            (.nanoseconds(5_000_001), 5, 6), (.seconds(2), 2000, 2000), (.milliseconds(-3), -3, -3),
            (.nanoseconds(-2_500_000), -2, -2),
        ] as [(Duration, Int64, Int64)])
    func milliseconds(duration: Duration, whole: Int64, roundedUp: Int64) {
        #expect(duration.wholeMilliseconds == whole)
        #expect(duration.millisecondsRoundedUp == roundedUp)
    }

    @Test("A duration too long for Int64 milliseconds saturates instead of trapping")
    func saturates() {
        #expect(Duration.seconds(Int64.max).wholeMilliseconds == .max)
        #expect(Duration.seconds(Int64.max).millisecondsRoundedUp == .max)
        #expect(Duration.seconds(Int64.min).wholeMilliseconds == .min)
    }
}

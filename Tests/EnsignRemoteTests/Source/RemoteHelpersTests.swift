import Testing

@testable import Ensign
@testable import EnsignOFREP
@testable import EnsignRemote

@Suite("OFREP remote source's helpers")
struct RemoteHelpersTests {
    @Test("Retry-After in seconds, as an HTTP date and as ISO 8601; nonsense is not a delay")
    func retryAfter() {
        let now = WallClockTime(secondsSince1970: 1_792_567_680)  // 2026-10-21T07:28:00Z
        #expect(RetryAfter.delay("120", now: now) == .seconds(120))
        #expect(RetryAfter.delay(" 0", now: now) == .zero)
        #expect(RetryAfter.delay("Wed, 21 Oct 2026 07:28:30 GMT", now: now) == .seconds(30))
        #expect(RetryAfter.delay("2026-10-21T07:29:00Z", now: now) == .seconds(60))
        #expect(RetryAfter.delay("2026-10-21T07:27:00Z", now: now) == .zero, "a past date: at once")
        #expect(RetryAfter.delay("99999999", now: now) == RetryAfter.maximum)
        for nonsense in ["", "soon", "-5", "Wed, 32 Oct 2026 07:28:30 GMT", "2026-13-01T00:00:00Z"] {
            #expect(RetryAfter.delay(nonsense, now: now) == nil, "\(nonsense)")
        }
    }

    @Test("Backoff doubles up to the maximum and jitter only shortens it")
    func backoff() {
        for failures in 1...12 {
            let nominal = min(Duration.milliseconds(100) * (1 << (failures - 1)), .seconds(5))
            for _ in 0..<20 {
                let delay = RemoteSession.backoff(
                    afterFailures: failures, initial: .milliseconds(100), maximum: .seconds(5))
                #expect(delay <= nominal && delay >= nominal / 2)
            }
        }
    }

    @Test("Query values are percent-encoded except for unreserved characters")
    func percentEncoding() {
        #expect(RemoteSession.percentEncoded("\"1lr-2\"") == "%221lr-2%22")
        #expect(RemoteSession.percentEncoded("a b&c=d/é~") == "a%20b%26c%3Dd%2F%C3%A9~")
    }

    @Test("The cache key depends on the server and the whole context, and hides the targeting key")
    func cacheKey() {
        let one = CachedEvaluation.cacheKey(baseURL: "http://a:1", context: ["targetingKey": "user-1", "plan": "pro"])
        #expect(one.count == 16 && !one.contains("user"))
        #expect(
            one == CachedEvaluation.cacheKey(baseURL: "http://a:1", context: ["plan": "pro", "targetingKey": "user-1"]))
        #expect(
            one != CachedEvaluation.cacheKey(baseURL: "http://a:2", context: ["targetingKey": "user-1", "plan": "pro"]))
        #expect(
            one
                != CachedEvaluation.cacheKey(
                    baseURL: "http://a:1", context: ["targetingKey": "user-1", "plan": "free"]))
    }

    @Test("Values by key with the variant in their provenance; failures per key; code defaults left out")
    func remoteValues() {
        let response = OFREPBulkEvaluationResponse(flags: [
            .success(OFREPEvaluationSuccess(key: "a", value: 1, reason: "TARGETING_MATCH", variant: "one")),
            .success(OFREPEvaluationSuccess(key: "b", value: nil, reason: "DEFAULT")),
            .failure(OFREPEvaluationFailure(key: "c", errorCode: .general, errorDetails: "boom")),
        ])
        let provided = RemoteValues.provided(from: response, origin: "ofrep http://x:1")
        #expect(provided.values.keys.sorted() == ["a"])
        #expect(provided.values["a"]?.origin == "ofrep http://x:1 variant one")
        #expect(provided.diagnostics.map(\.key) == ["c"])
        #expect(provided.diagnostics.first?.message.contains("GENERAL (boom)") == true)
    }
}

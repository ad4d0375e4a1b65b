import Testing

@testable import Ensign

@Suite("Reasons and error codes print OpenFeature's names")
struct ResolutionReasonTests {
    @Test("A reason prints as OpenFeature spells it, the same as the control protocol sends it")
    func reasonDescription() {
        #expect("\(ResolutionReason.staticValue)" == "STATIC")
        #expect("\(ResolutionReason.targetingMatch)" == "TARGETING_MATCH")
        #expect(ResolutionReason.allCases.allSatisfy { String(describing: $0) == $0.rawValue })
    }

    @Test("An error code prints as OpenFeature spells it")
    func errorCodeDescription() {
        #expect("\(ResolutionErrorCode.typeMismatch)" == "TYPE_MISMATCH")
        #expect(ResolutionErrorCode.allCases.allSatisfy { String(describing: $0) == $0.rawValue })
    }

    @Test("details(for:) of a file value prints its reason and source in one line")
    func detailsLine() throws {
        let context = try AppContext(definitions: "flags:\n  list.pageSize: { default: 20 }\n")
        let details = context.details(for: FlagKey("list.pageSize", default: 0))
        #expect("\(details.value) \(details.reason)" == "20 STATIC")
    }
}

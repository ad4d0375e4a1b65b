import Ensign
import EnsignJSON
import EnsignOFREP
import EnsignTestSupport
import Testing

/// flagd's selectors (`Flagd-Selector: flagSetId=ID`, or `?selector=`) over flag sets named
/// by `flagSetId` in a file's or a flag's metadata, the flag's own winning.
@Suite("OFREP service: flag set selectors")
struct OFREPFlagSetSelectorTests {
    static func service() throws -> OFREPService {
        OFREPService(context: try AppContext(definitions: FlagSetFixture.definitions))
    }

    static func post(_ target: String, selector: String? = nil) -> OFREPHTTPRequest {
        OFREPHTTPRequest(
            method: "POST", target: target, headers: selector.map { ["Flagd-Selector": $0] } ?? [:],
            body: Array(#"{"context": {"targetingKey": "u"}}"#.utf8))
    }

    static func keys(_ response: OFREPHTTPResponse) throws -> [String] {
        try JSONValue(jsonBytes: response.body)["flags"]?.arrayValue?.compactMap { $0["key"]?.stringValue }.sorted()
            ?? []
    }

    @Test("Selectors parse flagd's flagSetId=ID; anything else is refused with a reason")
    func parsing() throws {
        #expect(try OFREPFlagSetSelector(parsing: " flagSetId = payments ").flagSetID == "payments")
        for text in ["payments", "source=flags.json", "flagSetId=", "flagsetid=x"] {
            #expect(throws: OFREPFlagSetSelector.Invalid.self) { _ = try OFREPFlagSetSelector(parsing: text) }
        }
    }

    @Test("A single evaluation outside the selected set is FLAG_NOT_FOUND; inside it, the flag; header or parameter")
    func single() throws {
        let service = try Self.service()
        let inSet = service.respond(
            to: Self.post("/ofrep/v1/evaluate/flags/checkout", selector: "flagSetId=payments"))
        #expect(inSet.status == 200)
        let outside = service.respond(to: Self.post("/ofrep/v1/evaluate/flags/banner", selector: "flagSetId=payments"))
        #expect(outside.status == 404)
        #expect(try JSONValue(jsonBytes: outside.body)["errorCode"] == "FLAG_NOT_FOUND")
        let parameter = service.respond(
            to: Self.post("/ofrep/v1/evaluate/flags/banner?selector=flagSetId%3Dweb"))
        #expect(parameter.status == 200)
        let refused = service.respond(to: Self.post("/ofrep/v1/evaluate/flags/banner", selector: "source=x.json"))
        #expect(refused.status == 400)
        #expect(String(decoding: refused.body, as: UTF8.self).contains("flagSetId=ID"))
        #expect(service.respond(to: Self.post("/ofrep/v1/evaluate/flags/banner")).status == 200, "no selector: all")
    }

    @Test("A bulk evaluation answers the selected set's flags alone, with a tag of its own")
    func bulk() throws {
        let service = try Self.service()
        let payments = service.respond(to: Self.post("/ofrep/v1/evaluate/flags", selector: "flagSetId=payments"))
        #expect(try Self.keys(payments) == ["checkout"])
        let web = service.respond(to: Self.post("/ofrep/v1/evaluate/flags?selector=flagSetId%3Dweb"))
        #expect(try Self.keys(web) == ["banner", "layout"])
        let all = service.respond(to: Self.post("/ofrep/v1/evaluate/flags"))
        #expect(try Self.keys(all) == ["banner", "checkout", "layout"])
        let tags = Set([payments, web, all].compactMap { $0.header("etag") })
        #expect(tags.count == 3, "a tag per selection")
        // The set's tag revalidates the set.
        var revalidation = Self.post("/ofrep/v1/evaluate/flags", selector: "flagSetId=payments")
        revalidation.headers["if-none-match"] = payments.header("etag")
        #expect(service.respond(to: revalidation).status == 304)
        revalidation.headers["flagd-selector"] = "flagSetId=web"
        #expect(service.respond(to: revalidation).status == 200)
    }

    @Test("A change in another set leaves a set's tag alone; a change in the set moves it")
    func tagsPerSet() throws {
        let service = try Self.service()
        let first = service.respond(to: Self.post("/ofrep/v1/evaluate/flags", selector: "flagSetId=payments"))
        var revalidation = Self.post("/ofrep/v1/evaluate/flags", selector: "flagSetId=payments")
        revalidation.headers["if-none-match"] = first.header("etag")
        try service.context.setOverride(keyNamed: "banner", to: false)
        #expect(service.respond(to: revalidation).status == 304, "the web set changed, not payments")
        try service.context.setOverride(keyNamed: "checkout", to: false)
        #expect(service.respond(to: revalidation).status == 200)
    }

    @Test("Every flag's metadata names its set, the file's or its own")
    func metadata() throws {
        let service = try Self.service()
        let checkout = try JSONValue(
            jsonBytes: service.respond(to: Self.post("/ofrep/v1/evaluate/flags/checkout")).body)
        #expect(checkout["metadata"]?["flagSetId"] == "payments")
        let banner = try JSONValue(jsonBytes: service.respond(to: Self.post("/ofrep/v1/evaluate/flags/banner")).body)
        #expect(banner["metadata"]?["flagSetId"] == "web")
    }
}

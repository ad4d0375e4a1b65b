import Ensign
import EnsignJSON
import EnsignOFREP
import Testing

/// Static context and header → context mappings (flagd's `-X` and `-H`), merged in flagd's
/// order: headers over static values over the request's own context.
@Suite("OFREP service: context enrichment")
struct OFREPContextEnrichmentTests {
    static func service(static values: [String: JSONValue] = [:], headers: [String: String] = [:]) throws
        -> OFREPService
    {
        var options = OFREPServiceOptions()
        options.staticContext = values
        options.contextFromHeaders = headers
        return try OFREPServiceTests.makeService(options: options)
    }

    static func banner(_ service: OFREPService, context: String, headers: [String: String] = [:]) throws
        -> JSONValue?
    {
        let response = service.respond(
            to: OFREPServiceTests.post(
                "/ofrep/v1/evaluate/flags/banner", #"{"context": \#(context)}"#, headers: headers))
        return try OFREPEvaluationSuccess(jsonBytes: response.body).value
    }

    @Test("A static value reaches every evaluation and wins over the request's own")
    func staticValues() throws {
        let service = try Self.service(static: ["country": "FR"])
        #expect(try Self.banner(service, context: "{}") == .bool(true))
        #expect(try Self.banner(service, context: #"{"country": "US"}"#) == .bool(true))
        let plain = try Self.service()
        #expect(try Self.banner(plain, context: #"{"country": "US"}"#) == .bool(false))
    }

    @Test("A mapped header wins over the static value and the request's own; without the header, nothing is added")
    func headers() throws {
        let service = try Self.service(static: ["country": "US"], headers: ["x-country": "country"])
        #expect(try Self.banner(service, context: #"{"country": "DE"}"#, headers: ["X-Country": "FR"]) == .bool(true))
        #expect(try Self.banner(service, context: #"{"country": "FR"}"#) == .bool(false), "the static US wins")
        let headersOnly = try Self.service(headers: ["x-country": "country"])
        #expect(try Self.banner(headersOnly, context: #"{"country": "FR"}"#) == .bool(true), "no header: the body's")
    }

    @Test("The bulk ETag names the enriched context: another header value or static value is another tag")
    func tags() throws {
        let body = #"{"context": {"targetingKey": "u"}}"#
        func tag(_ service: OFREPService, _ headers: [String: String] = [:]) -> String? {
            service.respond(to: OFREPServiceTests.post("/ofrep/v1/evaluate/flags", body, headers: headers)).header(
                "etag")
        }
        let mapped = try Self.service(headers: ["x-country": "country"])
        #expect(tag(mapped, ["X-Country": "FR"]) != tag(mapped, ["X-Country": "DE"]))
        #expect(tag(mapped, ["X-Country": "FR"]) == tag(mapped, ["X-Country": "FR"]))
        #expect(tag(try Self.service(static: ["region": "eu"])) != tag(try Self.service(static: ["region": "us"])))
        // Two replicas with the same options agree.
        #expect(tag(try Self.service(static: ["region": "eu"])) == tag(try Self.service(static: ["region": "eu"])))
    }
}

import Ensign
import EnsignJSON
import EnsignOFREP
import EnsignTestSupport
import Testing

@Suite("OFREP service: single, bulk and configuration endpoints")
struct OFREPServiceTests {
    static let definitions = """
        flags:
        \(BannerFlag.yaml)
            metadata: { team: web }
          deferred:
            variants: { on: true, off: false }
            targeting: { if: [{ "==": [{ var: country }, "FR"] }, on, null] }
          color: { default: blue }
          retired:
            state: DISABLED
            variants: { on: true, off: false }
            defaultVariant: on
        preferences:
          darkMode: { default: false }
        """

    static func makeService(options: OFREPServiceOptions = OFREPServiceOptions()) throws -> OFREPService {
        OFREPService(context: try AppContext(definitions: definitions), options: options)
    }

    static func post(_ path: String, _ body: String, headers: [String: String] = [:]) -> OFREPHTTPRequest {
        OFREPHTTPRequest(method: "POST", target: path, headers: headers, body: Array(body.utf8))
    }

    static func json(_ response: OFREPHTTPResponse) throws -> JSONValue {
        try JSONValue(jsonBytes: response.body)
    }

    @Test("A single evaluation evaluates targeting for the request's own context")
    func singleTargeted() throws {
        let service = try Self.makeService()
        let france = service.respond(
            to: Self.post("/ofrep/v1/evaluate/flags/banner", #"{"context": {"targetingKey": "u", "country": "FR"}}"#))
        #expect(france.status == 200)
        #expect(france.header("content-type") == "application/json")
        let success = try OFREPEvaluationSuccess(jsonBytes: france.body)
        #expect(
            success
                == .init(
                    key: "banner", value: true, reason: "TARGETING_MATCH", variant: "on", metadata: ["team": "web"]))
        let other = try OFREPEvaluationSuccess(
            jsonBytes: service.respond(to: Self.post("/ofrep/v1/evaluate/flags/banner", #"{"context": {}}"#)).body)
        #expect(other.value == .bool(false))
    }

    @Test("A flag with no value for the context leaves the value out (the code default, ADR 0006)")
    func codeDefault() throws {
        let service = try Self.makeService()
        for key in ["deferred", "retired"] {
            let response = service.respond(to: Self.post("/ofrep/v1/evaluate/flags/\(key)", #"{"context": {}}"#))
            #expect(response.status == 200)
            let body = try Self.json(response)
            #expect(body["value"] == nil, "\(key): \(body.jsonText)")
            #expect(body["key"] == .string(key))
        }
        let disabled = service.respond(to: Self.post("/ofrep/v1/evaluate/flags/retired", #"{"context": {}}"#))
        #expect(try Self.json(disabled)["reason"] == "DISABLED")
    }

    @Test("An unknown flag is 404 FLAG_NOT_FOUND with its key; a percent-encoded key is decoded first")
    func notFound() throws {
        let service = try Self.makeService()
        let response = service.respond(to: Self.post("/ofrep/v1/evaluate/flags/no%20such", #"{"context": {}}"#))
        #expect(response.status == 404)
        let failure = try OFREPEvaluationFailure(jsonBytes: response.body)
        #expect(failure.key == "no such")
        #expect(failure.errorCode == .flagNotFound)
        #expect(service.respond(to: Self.post("/ofrep/v1/evaluate/flags/col%6Fr", #"{"context": {}}"#)).status == 200)
        #expect(service.respond(to: Self.post("/ofrep/v1/evaluate/flags/bad%zz", #"{"context": {}}"#)).status == 400)
    }

    @Test(
        "Bad bodies are 400 INVALID_CONTEXT with the problem's path, on both endpoints",
        arguments: ["", "{", "[]", #"{"context": []}"#, #"{"context": {"targetingKey": 1}}"#])
    func badBodies(body: String) throws {
        let service = try Self.makeService()
        let single = service.respond(to: Self.post("/ofrep/v1/evaluate/flags/color", body))
        #expect(single.status == 400)
        let failure = try OFREPEvaluationFailure(jsonBytes: single.body)
        #expect(failure.errorCode == .invalidContext && failure.key == "color")
        let bulk = service.respond(to: Self.post("/ofrep/v1/evaluate/flags", body))
        #expect(bulk.status == 400)
        #expect(try OFREPBulkEvaluationFailure(jsonBytes: bulk.body).errorCode == .invalidContext)
    }

    @Test("A bulk evaluation lists every flag, not the preferences, with an ETag and the event stream")
    func bulk() throws {
        var options = OFREPServiceOptions()
        options.eventStreamPath = OFREPServiceOptions.defaultEventStreamPath
        let service = try Self.makeService(options: options)
        let response = service.respond(
            to: Self.post("/ofrep/v1/evaluate/flags", #"{"context": {"targetingKey": "u", "country": "FR"}}"#))
        #expect(response.status == 200)
        let tag = try #require(response.header("etag"))
        #expect(tag.hasPrefix("\"") && tag.hasSuffix("\""))
        let bulk = try OFREPBulkEvaluationResponse(jsonBytes: response.body)
        #expect(bulk.flags.map(\.key) == ["banner", "color", "deferred", "retired"])
        #expect(
            bulk.eventStreams == [
                .init(type: "sse", endpoint: .init(requestUri: "/ofrep/v1/events"), inactivityDelaySec: 120)
            ])
        guard case .success(let banner) = bulk.flags[0] else {
            Issue.record("banner should evaluate")
            return
        }
        #expect(banner.value == .bool(true))
    }

    @Test("If-None-Match with the current tag is 304; another context or a live change is 200 with a new tag")
    func entityTags() throws {
        let service = try Self.makeService()
        let body = #"{"context": {"targetingKey": "u"}}"#
        let first = service.respond(to: Self.post("/ofrep/v1/evaluate/flags", body))
        let tag = try #require(first.header("etag"))
        let revalidated = service.respond(
            to: Self.post("/ofrep/v1/evaluate/flags", body, headers: ["If-None-Match": tag]))
        #expect(revalidated.status == 304)
        #expect(revalidated.body.isEmpty)
        #expect(revalidated.header("etag") == tag)
        let weakList = service.respond(
            to: Self.post("/ofrep/v1/evaluate/flags", body, headers: ["if-none-match": "\"x\", W/\(tag)"]))
        #expect(weakList.status == 304)
        let otherContext = service.respond(
            to: Self.post(
                "/ofrep/v1/evaluate/flags", #"{"context": {"targetingKey": "v"}}"#, headers: ["If-None-Match": tag]))
        #expect(otherContext.status == 200)
        try service.context.setOverride(keyNamed: "color", to: "red")
        let changed = service.respond(to: Self.post("/ofrep/v1/evaluate/flags", body, headers: ["If-None-Match": tag]))
        #expect(changed.status == 200)
        #expect(changed.header("etag") != tag)
    }

    @Test("A change no value of the server's own context shows still moves the tag")
    func ruleOnlyChangeMovesTheTag() throws {
        let service = try Self.makeService()
        let body = #"{"context": {"country": "FR"}}"#
        let tag = service.respond(to: Self.post("/ofrep/v1/evaluate/flags", body)).header("etag")
        // The root's context has no country: its banner stays off, a French request's does not.
        service.context.setEvaluationContext(EvaluationContext(attributes: ["plan": "pro"]))
        let after = service.respond(
            to: Self.post("/ofrep/v1/evaluate/flags", body, headers: ["If-None-Match": tag ?? ""]))
        #expect(after.status == 200)
    }

    @Test("Live overrides on the server's context reach requests through their children")
    func overridesApply() throws {
        let service = try Self.makeService()
        try service.context.setOverride(keyNamed: "banner", to: true)
        let response = service.respond(to: Self.post("/ofrep/v1/evaluate/flags/banner", #"{"context": {}}"#))
        let success = try OFREPEvaluationSuccess(jsonBytes: response.body)
        #expect(success.value == .bool(true))
        // OpenFeature has no OVERRIDE reason: STATIC on the wire, Ensign's reason in the metadata.
        #expect(success.reason == "STATIC")
        #expect(success.metadata["ensignReason"] == "OVERRIDE")
    }

    @Test("The configuration endpoint describes the server; wrong methods are 405 and other paths 404")
    func routing() throws {
        let service = try Self.makeService()
        let configuration = service.respond(to: OFREPHTTPRequest(method: "GET", target: "/ofrep/v1/configuration"))
        #expect(configuration.status == 200)
        let read = try OFREPConfigurationResponse(jsonBytes: configuration.body)
        #expect(read.name == "Ensign" && read.supportedTypes.contains("object"))
        let wrongMethod = service.respond(to: OFREPHTTPRequest(method: "GET", target: "/ofrep/v1/evaluate/flags"))
        #expect(wrongMethod.status == 405)
        #expect(wrongMethod.header("allow") == "POST")
        #expect(service.respond(to: Self.post("/elsewhere", "{}")).status == 404)
        #expect(service.respond(to: Self.post("/ofrep/v1/evaluate/flags/", "{}")).status == 404)
    }

    @Test("With credentials: none is 401, a wrong token 403, a bearer token or an API key 200")
    func credentials() throws {
        var options = OFREPServiceOptions()
        options.credentials = try OFREPCredentials(token: "s3cret\n")
        let service = try Self.makeService(options: options)
        let path = "/ofrep/v1/evaluate/flags/color"
        let missing = service.respond(to: Self.post(path, #"{"context": {}}"#))
        #expect(missing.status == 401)
        #expect(missing.header("www-authenticate") == "Bearer")
        #expect(
            service.respond(to: Self.post(path, #"{"context": {}}"#, headers: ["Authorization": "Bearer nope"])).status
                == 403)
        #expect(
            service.respond(to: Self.post(path, #"{"context": {}}"#, headers: ["Authorization": "Basic s3cret"])).status
                == 403)
        #expect(
            service.respond(to: Self.post(path, #"{"context": {}}"#, headers: ["Authorization": "Bearer s3cret"]))
                .status == 200)
        #expect(
            service.respond(to: Self.post(path, #"{"context": {}}"#, headers: ["X-API-Key": "s3cret"])).status == 200)
        #expect(throws: OFREPCredentials.InvalidToken.self) { try OFREPCredentials(token: " \n") }
    }

    @Test("A body over the limit is 413")
    func bodyLimit() throws {
        var options = OFREPServiceOptions()
        options.maximumBodyBytes = 32
        let service = try Self.makeService(options: options)
        let body = #"{"context": {"targetingKey": "a-rather-long-targeting-key"}}"#
        #expect(service.respond(to: Self.post("/ofrep/v1/evaluate/flags", body)).status == 413)
    }

    @Test("A broken flag is 400 PARSE_ERROR on its own, and a failure item in the bulk response")
    func brokenFlag() throws {
        let context = try AppContext(
            definitions: """
                flags:
                  good: { default: 1 }
                  broken:
                    variants: { a: 1 }
                    defaultVariant: a
                    targeting: { bogus: [1] }
                """)
        let service = OFREPService(context: context)
        let single = service.respond(to: Self.post("/ofrep/v1/evaluate/flags/broken", #"{"context": {}}"#))
        #expect(single.status == 400)
        #expect(try OFREPEvaluationFailure(jsonBytes: single.body).errorCode == .parseError)
        let bulk = try OFREPBulkEvaluationResponse(
            jsonBytes: service.respond(to: Self.post("/ofrep/v1/evaluate/flags", #"{"context": {}}"#)).body)
        #expect(bulk.flags.count == 2)
        #expect(bulk.flags.contains { if case .failure(let failure) = $0 { failure.key == "broken" } else { false } })
    }

    @Test("The change event carries the generation as id and a configuration tag")
    func changeEvent() throws {
        let service = try Self.makeService()
        let before = service.changeEvent()
        try service.context.setOverride(keyNamed: "color", to: "red")
        let after = service.changeEvent(lastModifiedSeconds: 5)
        #expect(before.id != after.id)
        #expect(after.data.type == "refetchEvaluation")
        #expect(after.data.lastModified == .seconds(5))
        #expect(try OFREPServerSentEvent(streamText: after.streamText) == after)
    }
}

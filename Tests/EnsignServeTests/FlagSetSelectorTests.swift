import Ensign
import EnsignJSON
import EnsignTestSupport
import Foundation
import Testing

/// flagd's selectors through `ensign serve`'s HTTP: the `Flagd-Selector` header and the
/// `selector` query parameter reach the service.
@Suite("ensign serve selects flag sets", .serialized)
struct FlagSetSelectorTests {
    static let flags = """
        {
          "metadata": { "flagSetId": "web" },
          "flags": {
            "banner": { "state": "ENABLED", "variants": { "on": true }, "defaultVariant": "on" },
            "checkout": {
              "state": "ENABLED", "variants": { "on": true }, "defaultVariant": "on",
              "metadata": { "flagSetId": "payments" }
            }
          }
        }
        """

    static let pythonProgram = #"""
        import json, sys
        from openfeature import api
        from openfeature.evaluation_context import EvaluationContext
        from openfeature.contrib.provider.ofrep import OFREPProvider

        base_url, selector = sys.argv[1], sys.argv[2]
        api.set_provider(OFREPProvider(base_url, headers_factory=lambda: {"Flagd-Selector": selector}, timeout=10))
        client = api.get_client()
        context = EvaluationContext("user-1")
        result = {}
        for key in ("checkout", "banner"):
            details = client.get_boolean_details(key, False, context)
            result[key] = {"value": details.value, "error": details.error_code.value if details.error_code else None}
        print(json.dumps(result))
        """#

    @Test("OpenFeature's Python OFREP provider sending a selector gets its set's flags, and FLAG_NOT_FOUND outside it")
    func pythonClient() throws {
        try OpenFeatureClientTests.client.prepare(for: "the flag set selector test")
        let server = try ServeProcess(serving: Self.flags, as: "flags.json")
        let script = try server.directory.write("client.py", Self.pythonProgram)
        let result = try BuiltExecutable.run(
            executable: OpenFeatureClientTests.client.python,
            [script, "http://127.0.0.1:\(server.port)", "flagSetId=payments"], timeout: .seconds(120))
        #expect(result.status == 0, "\(result.errors)")
        let answers = try JSONValue(jsonText: result.output)
        #expect(answers["checkout"] == ["value": true, "error": .null])
        #expect(answers["banner"] == ["value": false, "error": "FLAG_NOT_FOUND"])
    }

    @Test("The header and the parameter each select a set in bulk and single evaluations")
    func headerAndParameter() throws {
        let server = try ServeProcess(serving: Self.flags, as: "flags.json")
        let body = #"{"context": {"targetingKey": "u"}}"#
        func keys(_ response: RawHTTPClient.Response) throws -> [String] {
            try JSONValue(jsonText: response.text)["flags"]?.arrayValue?.compactMap { $0["key"]?.stringValue }
                .sorted() ?? []
        }
        let client = try RawHTTPClient(port: UInt16(server.port))
        let byHeader = try client.request(
            "POST", "/ofrep/v1/evaluate/flags", body: body, headers: ["Flagd-Selector": "flagSetId=payments"])
        #expect(try keys(byHeader) == ["checkout"], "\(byHeader.text)")
        let byParameter = try client.request("POST", "/ofrep/v1/evaluate/flags?selector=flagSetId%3Dweb", body: body)
        #expect(try keys(byParameter) == ["banner"], "\(byParameter.text)")
        #expect(try keys(try client.request("POST", "/ofrep/v1/evaluate/flags", body: body)) == ["banner", "checkout"])
        let outside = try client.request(
            "POST", "/ofrep/v1/evaluate/flags/banner?selector=flagSetId%3Dpayments", body: body)
        #expect(outside.status == 404, "\(outside.text)")
    }

    @Test("An event stream with a selector hears of its set's changes alone; one without hears of all")
    func streams() throws {
        let server = try ServeProcess(serving: Self.flags, as: "flags.json")
        let everything = try RawHTTPClient(port: UInt16(server.port))
        let payments = try RawHTTPClient(port: UInt16(server.port))
        try everything.send("GET /ofrep/v1/events HTTP/1.1\r\nHost: x\r\n\r\n")
        try payments.send("GET /ofrep/v1/events?selector=flagSetId%3Dpayments HTTP/1.1\r\nHost: x\r\n\r\n")
        // Both streams are open once the server counts them.
        #expect(
            waitUntil("two streams open", timeout: .seconds(10)) {
                let metrics = try? RawHTTPClient(port: UInt16(server.port)).request("GET", "/metrics").text
                return metrics?.contains(#"ensign_serve_connections{state="streaming"} 2"#) == true
            })
        // A change in the web set, announced, then one in the payments set.
        func announcements() -> Int? {
            let metrics = try? RawHTTPClient(port: UInt16(server.port)).request("GET", "/metrics").text
            let line = metrics?.split(separator: "\n").first {
                $0.hasPrefix("ensign_serve_change_announcements_total ")
            }
            return line.flatMap { Double($0.split(separator: " ").last ?? "") }.map { Int($0) }
        }
        let before = try #require(announcements())
        for (index, key) in ["banner", "checkout"].enumerated() {
            let set = try BuiltExecutable.run("ensign", ["set", key, "false", "--socket", server.socket])
            #expect(set.status == 0, "\(set.errors)")
            #expect(
                waitUntil("change \(index + 1) announced", timeout: .seconds(10)) {
                    (announcements() ?? 0) >= before + index + 1
                })
        }
        func events(_ text: String) -> Int { text.components(separatedBy: "refetchEvaluation").count - 1 }
        let all = try everything.readStream(timeout: .seconds(10)) { events($0) >= 2 }
        #expect(all.isDone, "the stream without a selector hears of both: \(all.text)")
        // The payments change came last: once its event is in, a web event would have come before it.
        let set = try payments.readStream(timeout: .seconds(10)) { events($0) >= 1 }
        #expect(set.isDone && events(set.text) == 1, "the payments stream hears of checkout alone: \(set.text)")
    }
}

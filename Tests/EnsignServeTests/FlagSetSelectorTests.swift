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

    @Test("The header and the parameter each select a set in bulk and single evaluations")
    func headerAndParameter() throws {
        let directory = try TemporaryDirectory()
        let flagsFile = try directory.write("flags.json", Self.flags)
        let server = try OpenFeatureClientTests.Server(flags: URL(fileURLWithPath: flagsFile))
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
}

import Ensign
import EnsignTestSupport
import Testing

@Suite("Object keys read as [String: JSONValue]")
struct ObjectKeyTests {
    @Test("Only an object converts; other values do not")
    func conversion() {
        let members: [String: JSONValue] = ["accent": "blue", "size": 2]
        #expect([String: JSONValue](flagValue: .object(members)) == members)
        #expect(members.flagValue == .object(members))
        #expect([String: JSONValue].flagType == .object)
        for other: JSONValue in [true, 1, 1.5, "text", [1, 2], .null] {
            #expect([String: JSONValue](flagValue: other) == nil, "\(other)")
        }
    }

    @Test("A flag of another type read as an object is a type mismatch with the code default")
    func mismatch() throws {
        let context = try ContextFixtures.context()
        let key = FlagKey<[String: JSONValue]>("transfers.newFlow", default: ["fallback": true])
        let details = context.details(for: key)
        #expect(details.value == ["fallback": true])
        #expect(details.reason == .error)
        #expect(details.errorCode == .typeMismatch)
        // A JSONValue key takes the same flag's value as it is.
        #expect(context[FlagKey<JSONValue>("transfers.newFlow", default: .null)] == false)
    }
}

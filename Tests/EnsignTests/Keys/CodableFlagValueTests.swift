import Ensign
import Testing

@Suite("Codable types as flag values")
struct CodableFlagValueTests {
    struct Banner: CodableFlagValue {
        var title: String
        var priority: Int
        var tags: [String]?
    }

    static let definitions = """
        flags:
          home.banner: { type: object, swiftType: Banner, default: { title: Welcome, priority: 1 } }
          home.broken: { type: object, default: { title: 42 } }
        """

    static let banner = FlagKey("home.banner", default: Banner(title: "code", priority: 0))
    static let broken = FlagKey("home.broken", default: Banner(title: "code", priority: 0))

    @Test("A conforming struct is an object value, converted both ways")
    func conversions() {
        #expect(Banner.flagType == .object)
        let value: JSONValue = ["title": "Sale", "priority": 2, "tags": ["a"]]
        #expect(Banner(flagValue: value) == Banner(title: "Sale", priority: 2, tags: ["a"]))
        #expect(Banner(title: "Sale", priority: 2).flagValue == ["title": "Sale", "priority": 2])
        #expect(Banner(flagValue: ["title": "Sale"]) == nil)
        #expect(Banner(flagValue: "Sale") == nil)
    }

    @Test("A context reads the definition's object as the struct")
    func contextRead() throws {
        let context = try AppContext(definitions: Self.definitions)
        #expect(context[Self.banner] == Banner(title: "Welcome", priority: 1))
    }

    @Test("An object that does not decode is a type mismatch: the code default, with TYPE_MISMATCH")
    func mismatch() throws {
        let context = try AppContext(definitions: Self.definitions)
        let details = context.details(for: Self.broken)
        #expect(details.value == Banner(title: "code", priority: 0))
        #expect(details.errorCode == .typeMismatch)
    }

    @Test("An override of a Codable key is stored as its encoded object")
    func override() throws {
        let context = try AppContext(definitions: Self.definitions)
        try context.setOverride(Self.banner, to: Banner(title: "Override", priority: 9, tags: ["x"]))
        #expect(context[Self.banner] == Banner(title: "Override", priority: 9, tags: ["x"]))
        #expect(context.value(forKeyNamed: "home.banner") == ["title": "Override", "priority": 9, "tags": ["x"]])
    }

    @Test("Generated keys convert the definition's default, Codable or not")
    func generatedDefault() {
        #expect(
            Banner(generatedDefault: ["title": "Hi", "priority": 3], key: "home.banner")
                == Banner(title: "Hi", priority: 3))
        #expect(Int(generatedDefault: 7, key: "page") == 7)
    }
}

import Ensign
import EnsignDebugMenu
import Testing

@Suite("The debug menu's list: filtering, sorting, grouping")
struct DebugMenuListTests {
    static func entry(_ key: String, _ value: JSONValue = .bool(true), type: String = "bool") -> DebugMenuEntry {
        DebugMenuEntry(key: key, type: type, value: value, reason: "STATIC", isOverridden: false, summary: "")
    }

    @Test("Visible entries are sorted by key and filtered case-insensitively by key")
    func filtering() {
        var list = DebugMenuList(entries: [
            Self.entry("payments.limit"), Self.entry("beneficiaries.showPendingList"), Self.entry("app.Pending"),
        ])
        #expect(list.visibleEntries.map(\.key) == ["app.Pending", "beneficiaries.showPendingList", "payments.limit"])
        list.filter = "PENDING"
        #expect(list.visibleEntries.map(\.key) == ["app.Pending", "beneficiaries.showPendingList"])
        list.filter = "nothing matches"
        #expect(list.visibleEntries.isEmpty)
        #expect(list.groups.isEmpty)
    }

    @Test("Groups are the keys' first segments, in order, each with its entries only")
    func grouping() {
        let list = DebugMenuList(entries: [
            Self.entry("b.two"), Self.entry("a.one"), Self.entry("b.one"), Self.entry("solo"), Self.entry("a.two"),
        ])
        #expect(list.groups.map(\.name) == ["a", "b", "solo"])
        #expect(list.groups.map { $0.entries.map(\.key) } == [["a.one", "a.two"], ["b.one", "b.two"], ["solo"]])
    }

    @Test("Typed text is JSON when it parses, a string otherwise; editable text drops a string's quotes")
    func typedText() {
        #expect(DebugMenuActions.value(fromTypedText: "50") == .int(50))
        #expect(DebugMenuActions.value(fromTypedText: "true") == .bool(true))
        #expect(DebugMenuActions.value(fromTypedText: "{\"a\": 1}") == .object(["a": .int(1)]))
        #expect(DebugMenuActions.value(fromTypedText: "compact") == .string("compact"))
        #expect(DebugMenuActions.value(fromTypedText: "\"50\"") == .string("50"))
        #expect(Self.entry("k", .string("compact"), type: "string").editableText == "compact")
        #expect(Self.entry("k", .int(7), type: "int").editableText == "7")
        #expect(Self.entry("k", .null, type: "int").editableText == "")
    }

    @Test("A type is named with its article, for the messages of both menus")
    func typeWithArticle() {
        #expect(Self.entry("k", type: "int").typeWithArticle == "an int")
        #expect(Self.entry("k", type: "object").typeWithArticle == "an object")
        #expect(Self.entry("k", type: "bool").typeWithArticle == "a bool")
        #expect(Self.entry("k", type: "double").typeWithArticle == "a double")
        #expect(Self.entry("k", type: "string").typeWithArticle == "a string")
        #expect(Self.entry("k", type: "?").typeWithArticle == "a ?")
    }
}

import Ensign
import EnsignDebugMenu
import EnsignTestSupport
import Foundation
import Testing

/// The calls `EnsignSwiftUI` makes into tested code, made here on Linux, where the glue
/// itself is not compiled: renaming or reshaping one of them breaks this file's build, not
/// first an app's on an Apple platform. The last test checks that every member the glue
/// reads is one this file calls.
@Suite("The calls the SwiftUI glue makes exist and behave as the glue expects")
@MainActor
struct SwiftUIGlueContractTests {
    @Test("AppContextEnvironment: the environment's default is the unconfigured context")
    func environmentDefault() {
        let fallback: AppContext = .unconfigured
        #expect(fallback.environment == "unconfigured")
        #expect(fallback[.showPendingList] == false)
    }

    @Test("ContextFlag: the wrapped value is the slot's model's value; the binding writes editableValue")
    func contextFlag() throws {
        let context = try BeneficiariesFixture.context()
        let slot = ContextKeyModelSlot<Bool, FlagKeyKind>()
        #expect(slot.model(for: context, key: .showPendingList).value == false)
        let model = slot.model(for: context, key: .showPendingList)
        let get: () -> Bool = { model.editableValue }
        let set: (Bool) -> Void = { model.editableValue = $0 }
        set(true)
        #expect(get() == true)
        #expect(context[.showPendingList] == true)
    }

    @Test("AppContextOverrides: the cache's child for the environment's parent carries the overrides")
    func overrides() throws {
        let parent = try BeneficiariesFixture.context()
        let cache = OverrideChildCache()
        let configure: (AppContext) throws -> Void = { try $0.setOverride(.showPendingList, to: true) }
        #expect(cache.child(of: parent, label: "overrides", configure: configure)[.showPendingList] == true)
    }

    @Test("AppContextDebugMenu: groups, rows, search, the message and the writes")
    func debugMenu() throws {
        let context = try BeneficiariesFixture.context()
        let model: DebugMenuModel? = DebugMenuModel(context: context)
        let menu = try #require(model)
        #expect(model?.title == menu.title)
        model?.filter = "beneficiaries"
        #expect(model?.filter ?? "" == "beneficiaries")
        let group = try #require(menu.groups.first)
        #expect(group.id == group.name)
        let rows = Dictionary(uniqueKeysWithValues: group.entries.map { ($0.id, $0) })
        let pending = try #require(rows["beneficiaries.showPendingList"])
        let pageSize = try #require(rows["beneficiaries.pageSize"])
        #expect(pending.isToggleable && !pageSize.isToggleable)
        #expect(pending.isOn == false)
        #expect(pageSize.editableText == "20")
        #expect(pageSize.reason == "STATIC" && !pageSize.isOverridden)
        #expect(pending.summary == "Show pending beneficiaries.")

        menu.toggle(pending.key)
        #expect(menu.list.entry(forKey: pending.key)?.isOn == true)
        menu.set(pageSize.key, text: "25")
        #expect(menu.list.entry(forKey: pageSize.key)?.isOverridden == true)
        menu.reset(pageSize.key)
        #expect(menu.list.entry(forKey: pageSize.key)?.editableText == "20")
        #expect(!menu.message.isEmpty)
    }

    @Test("Every member the glue reads from a model, entry, group, cache or slot is called in this file")
    func membersCovered() throws {
        let glue = try SwiftUIGlueTests.files().map { try String(contentsOf: $0, encoding: .utf8) }.joined()
        let here = try String(
            contentsOf: BuiltExecutable.packageRoot.appendingPathComponent(
                "Tests/EnsignDebugMenuTests/SwiftUI/SwiftUIGlueContractTests.swift"), encoding: .utf8)
        let members = Self.members(in: glue)
        #expect(members.count >= 15, "\(members.sorted())")
        for member in members.sorted() {
            #expect(here.contains(".\(member)"), "the glue reads .\(member), which no test here calls")
        }
    }

    /// `toggle` from `model.toggle(`, `filter` from `model?.filter`: the members read off the
    /// glue's names for the tested types.
    static func members(in source: String) -> Set<String> {
        let pattern = /\b(?:model|entry|group|cache|slot)\??\.([A-Za-z]\w*)/
        return Set(source.matches(of: pattern).map { String($0.output.1) })
    }
}

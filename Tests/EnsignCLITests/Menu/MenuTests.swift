import Ensign
import EnsignDebugMenu
import EnsignTestSupport
import Testing

@testable import EnsignCLI

@Suite("The terminal debug menu, without a terminal")
struct MenuTests {
    static let definitions = """
        flags:
          beneficiaries.showPendingList: { type: bool, default: false, description: Show pending. }
          beneficiaries.pageSize: { type: int, default: 20, maximum: 100 }
          transfers.newFlow: { type: bool, default: false }
        preferences:
          appearance.darkMode: { type: bool, default: false }
        """

    func makeMenu() throws -> (AppContext, MenuController, MenuModel) {
        let context = try AppContext(definitions: Self.definitions)
        let backend = ContextDebugMenuBackend(context: context)
        var model = MenuModel(title: backend.title)
        model.update(try backend.entries())
        return (context, MenuController(backend: backend, pageSize: 10), model)
    }

    @Test("Space toggles the selected bool; the override is marked")
    func toggle() throws {
        var (context, controller, model) = try makeMenu()
        controller.handle(.down, in: &model)
        controller.handle(.down, in: &model)
        #expect(model.selectedKey == "beneficiaries.showPendingList")
        controller.handle(.character(" "), in: &model)
        #expect(context.value(forKeyNamed: "beneficiaries.showPendingList") == true)
        #expect(model.selectedEntry?.isOverridden == true)
        #expect(model.message == "toggled beneficiaries.showPendingList")
    }

    @Test("e edits any value with validation; a refused value shows the app's error")
    func edit() throws {
        var (context, controller, model) = try makeMenu()
        model.selectedKey = "beneficiaries.pageSize"
        controller.handle(.character("e"), in: &model)
        #expect(model.mode == .editing(key: "beneficiaries.pageSize", text: "20"))
        for key in [MenuKey.backspace, .backspace, .character("5"), .character("0"), .enter] {
            controller.handle(key, in: &model)
        }
        #expect(context.value(forKeyNamed: "beneficiaries.pageSize") == 50)
        controller.handle(.character("e"), in: &model)
        for key in [MenuKey.character("0"), .enter] { controller.handle(key, in: &model) }  // 500
        #expect(model.message.contains("above the maximum of 100"))
        #expect(context.value(forKeyNamed: "beneficiaries.pageSize") == 50)
        controller.handle(.character(" "), in: &model)
        #expect(model.message.contains("press e to edit"))
    }

    @Test("/ filters by substring, r resets, q quits")
    func searchResetQuit() throws {
        var (context, controller, model) = try makeMenu()
        for key in [MenuKey.character("/"), .character("f"), .character("l"), .character("o"), .character("w"), .enter]
        {
            controller.handle(key, in: &model)
        }
        #expect(model.visibleEntries.map(\.key) == ["transfers.newFlow"])
        controller.handle(.enter, in: &model)
        #expect(context.value(forKeyNamed: "transfers.newFlow") == true)
        controller.handle(.character("r"), in: &model)
        #expect(context.value(forKeyNamed: "transfers.newFlow") == false)
        controller.handle(.escape, in: &model)
        #expect(model.filter.isEmpty)
        #expect(!model.isFinished)
        controller.handle(.character("q"), in: &model)
        #expect(model.isFinished)
    }

    @Test("The screen fits 80×24, groups by namespace and marks the selection and overrides")
    func rendering() throws {
        var (_, controller, model) = try makeMenu()
        model.selectedKey = "transfers.newFlow"
        controller.handle(.character(" "), in: &model)
        let lines = MenuRenderer(columns: 80, rows: 24, usesColor: false).lines(for: model)
        #expect(lines.count == 24)
        #expect(lines.allSatisfy { $0.count <= 80 })
        #expect(lines[0].hasPrefix(" ensign menu — root (test)"))
        #expect(lines.contains(" beneficiaries"))
        let selected = try #require(lines.first { $0.hasPrefix(" ▶ ") })
        #expect(selected.contains("newFlow"))
        #expect(selected.contains("true"))
        #expect(selected.contains("● override"))
        #expect(lines.last?.hasPrefix(" toggled transfers.newFlow") == true)
    }

    @Test("Help replaces the list until any key")
    func help() throws {
        var (_, controller, model) = try makeMenu()
        controller.handle(.character("?"), in: &model)
        let lines = MenuRenderer(columns: 80, rows: 24, usesColor: false).lines(for: model)
        #expect(lines.contains { $0.contains("toggle a bool") })
        controller.handle(.character("x"), in: &model)
        #expect(model.mode == .browsing)
    }

    @Test("Terminal bytes decode into keys")
    func keyDecoding() {
        #expect(KeyDecoder.decode([0x1B, 0x5B, 0x41, 0x1B, 0x5B, 0x42]) == [.up, .down])
        #expect(KeyDecoder.decode([0x1B, 0x5B, 0x35, 0x7E, 0x1B, 0x5B, 0x36, 0x7E]) == [.pageUp, .pageDown])
        #expect(KeyDecoder.decode(Array("jk/".utf8)) == [.character("j"), .character("k"), .character("/")])
        #expect(KeyDecoder.decode([0x03, 0x0D, 0x7F, 0x1B]) == [.interrupt, .enter, .backspace, .escape])
        #expect(KeyDecoder.decode(Array("é".utf8)) == [.character("é")])
    }

    @Test("A change made elsewhere reaches the menu's watch")
    func liveUpdates() throws {
        let (context, _, _) = try makeMenu()
        let backend = ContextDebugMenuBackend(context: context)
        let changes = AtomicCounter()
        let stop = try backend.watch { changes.increment() }
        try context.setOverride(keyNamed: "beneficiaries.pageSize", to: 30, actor: "cli")
        #expect(changes.count == 1)
        stop()
        try context.setOverride(keyNamed: "beneficiaries.pageSize", to: 40, actor: "cli")
        #expect(changes.count == 1)
    }
}

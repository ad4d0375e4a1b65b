import Testing

@testable import Ensign

/// A module in the style the docs recommend: it receives its scoped context by injection,
/// reads its keys with short names, and re-renders only when one of them changes.
final class BeneficiariesModule: Sendable {
    static let showPendingList = FlagKey("showPendingList", default: false)
    static let pageSize = FlagKey("pageSize", default: 10)

    let context: AppContext
    let renders = Recorder<String>()
    private let tokens: [ObservationToken]

    init(context: AppContext) {
        self.context = context
        let renders = self.renders
        let render: @Sendable () -> Void = {
            renders.record("pending=\(context[Self.showPendingList]) size=\(context[Self.pageSize])")
        }
        tokens = [
            context.observe(Self.showPendingList, label: "beneficiaries") { _ in render() },
            context.observe(Self.pageSize, label: "beneficiaries") { _ in render() },
        ]
        render()
    }
}

@Suite("Injection and the task-local current context")
struct InjectionTests {
    @Test("A module gets its scoped context by injection and is tested with a one-line override")
    func moduleWithOverride() throws {
        let root = try ContextFixtures.context()
        let module = BeneficiariesModule(
            context: try root.makeChild(label: "test") { try $0.setOverride(.showPendingList, to: true) }
                .scope("beneficiaries"))
        #expect(module.renders.values == ["pending=true size=20"])
        try root.setOverride(.pageSize, to: 50)
        try root.setOverride(.newFlow, to: true)  // not the module's key: no render
        #expect(module.renders.values == ["pending=true size=20", "pending=true size=50"])
    }

    @Test("withAppContext makes a context current for the operation and the tasks it starts")
    func taskLocal() async throws {
        let context = try ContextFixtures.context()
        try context.setOverride(.pageSize, to: 42)
        #expect(AppContext.current[.pageSize] == 10)
        withAppContext(context) {
            #expect(AppContext.current[.pageSize] == 42)
        }
        await withAppContext(context) {
            let inherited = await Task { AppContext.current[.pageSize] }.value
            #expect(inherited == 42)
        }
        #expect(AppContext.current === AppContext.unconfigured)
    }

    @Test("Without injection every key reads its code default, never a crash")
    func unconfiguredDefault() {
        #expect(AppContext.unconfigured[.pageSize] == 10)
        #expect(AppContext.unconfigured[.showPendingList] == false)
        #expect(AppContext.unconfigured.details(for: .pageSize).errorCode == .flagNotFound)
    }

    @Test("@ContextValue reads from the current context")
    func propertyWrapper() throws {
        struct Screen {
            @ContextValue(.pageSize) var pageSize
            @ContextValue(.darkMode) var darkMode
        }
        let context = try ContextFixtures.context()
        try context.setPreference(.darkMode, to: true)
        let screen = Screen()
        #expect(screen.pageSize == 10)
        withAppContext(context) {
            #expect(screen.pageSize == 20)
            #expect(screen.darkMode == true)
        }
    }
}

import EnsignTestSupport
import EnsignTesting
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

    /// A screen in the style of a UI framework's view: its properties read flags through the wrapper.
    struct Screen: Sendable {
        static let pageSizeLine = #line + 1
        @ContextValue(.pageSize) var pageSize
        @ContextValue(FlagKey("pageSize", default: 0)) var scopedPageSize
    }

    @Test("@ContextValue keeps the context current when it was created, read outside withAppContext")
    func capturedAtCreation() async throws {
        let context = try ContextFixtures.context()
        let screen = withAppContext(context) { Screen() }
        #expect(screen.pageSize == 20)
        #expect(await Task.detached { screen.pageSize }.value == 20)
        try context.setOverride(.pageSize, to: 30)
        #expect(screen.pageSize == 30)  // the captured context, read live
    }

    @Test("A wrapper made in a scope keeps reading that scope inside another context's withAppContext")
    func capturedScopeWins() throws {
        let context = try ContextFixtures.context()
        let screen = withAppContext(context.scope("beneficiaries")) { Screen() }
        withAppContext(context) {
            #expect(screen.scopedPageSize == 20)  // beneficiaries.pageSize
        }
    }

    @Test("Every read of the unconfigured context goes to the task's handler, with the wrapper's declaration")
    func unconfiguredReadsReported() async throws {
        let reads = Recorder<AppContext.UnconfiguredRead>()
        let record: @Sendable (AppContext.UnconfiguredRead) -> Void = { reads.record($0) }
        let screen = Screen()
        AppContext.withUnconfiguredReadHandler(record) {
            _ = AppContext.current[.pageSize]
            _ = AppContext.current[.pageSize]
            _ = screen.pageSize
        }
        await AppContext.withUnconfiguredReadHandler(record) {
            _ = await Task { screen.pageSize }.value  // a task started inside sees the handler too
        }
        try #require(reads.count == 4)
        #expect(reads.values.map(\.key) == Array(repeating: "beneficiaries.pageSize", count: 4))
        #expect(reads.values[0].declaration == nil)
        #expect(reads.values[2].declaration?.fileID == "EnsignTests/InjectionTests.swift")
        #expect(reads.values[2].declaration?.line == Screen.pageSizeLine)
    }

    @Test("A configured read calls no unconfigured-read handler")
    func configuredReadsNotReported() throws {
        let context = try ContextFixtures.context()
        let reads = Recorder<AppContext.UnconfiguredRead>()
        let record: @Sendable (AppContext.UnconfiguredRead) -> Void = { reads.record($0) }
        AppContext.withUnconfiguredReadHandler(record) {
            withAppContext(context) { _ = Screen().pageSize }
            _ = context[.pageSize]
        }
        #expect(reads.count == 0)
    }

    @Suite("The failsOnUnconfiguredReads trait", .failsOnUnconfiguredReads)
    struct FailsOnUnconfiguredReadsTests {
        @Test("A read of the unconfigured context records an issue naming the key and the declaration")
        func readRecordsIssue() {
            withKnownIssue {
                _ = Screen().pageSize
            } matching: { issue in
                let text = issue.comments.map(\.rawValue).joined()
                return text.contains("'beneficiaries.pageSize'") && text.contains("InjectionTests.swift")
                    && issue.sourceLocation?.fileName == "InjectionTests.swift"
            }
        }

        @Test("Reads of an injected context record nothing")
        func configuredReadPasses() throws {
            let context = try ContextFixtures.context()
            let screen = withAppContext(context) { Screen() }
            #expect(screen.pageSize == 20)
        }
    }
}

import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension AppContext {
    /// The context of the current task: the one given to ``withAppContext(_:operation:)``
    /// around it, or ``unconfigured``.
    ///
    /// Module code can read it without a parameter; ``ContextValue`` captures it when it is
    /// created.
    @TaskLocal public static var current: AppContext = .unconfigured

    /// The context used where none was injected: no definitions, so every key reads its code
    /// default. Well defined (never a crash); in debug builds the first read prints a hint,
    /// and under ``withUnconfiguredReadHandler(_:operation:)`` every read is reported.
    public static let unconfigured = AppContext(
        store: ContextStore(
            label: "unconfigured", inputs: ContextInputs(layout: .empty, environment: "unconfigured"),
            settings: ContextSettings(isUnconfigured: true)),
        keyPrefix: nil)

    /// Whether this is ``unconfigured`` (or a scope or child of it).
    var isUnconfigured: Bool { store.settings.isUnconfigured }

    /// Runs `operation` with `handler` called for every read of ``unconfigured`` made in it
    /// and in the tasks it starts, instead of the one-time hint.
    ///
    /// Test suites use it, through the `EnsignTesting` library's `.failsOnUnconfiguredReads`
    /// trait, to turn a read that silently got a code default into a failed test.
    ///
    /// ```swift
    /// let warn: @Sendable (AppContext.UnconfiguredRead) -> Void = { read in print("warning: \(read)") }
    /// AppContext.withUnconfiguredReadHandler(warn) {
    ///     BeneficiariesList().render()
    /// }
    /// ```
    public static func withUnconfiguredReadHandler<Result>(
        _ handler: @escaping @Sendable (UnconfiguredRead) -> Void, operation: () throws -> Result
    ) rethrows -> Result {
        try $unconfiguredReadHandler.withValue(handler, operation: operation)
    }

    /// Runs the async `operation` with `handler` called for every read of ``unconfigured``
    /// in it; see ``withUnconfiguredReadHandler(_:operation:)``.
    public static func withUnconfiguredReadHandler<Result>(
        _ handler: @escaping @Sendable (UnconfiguredRead) -> Void, isolation: isolated (any Actor)? = #isolation,
        operation: () async throws -> Result
    ) async rethrows -> Result {
        try await $unconfiguredReadHandler.withValue(handler, operation: operation, isolation: isolation)
    }

    @TaskLocal static var unconfiguredReadHandler: (@Sendable (UnconfiguredRead) -> Void)?

    /// Reports a read of ``unconfigured``: to the task's handler, or, once per process and
    /// only in debug builds, as a hint on standard error.
    static func reportUnconfiguredRead(_ read: UnconfiguredRead) {
        if let handler = unconfiguredReadHandler {
            handler(read)
            return
        }
        #if DEBUG
            guard UnconfiguredWarning.shouldPrint() else { return }
            var bytes = Array("ensign: \(read) (Printed once; debug builds only.)\n".utf8)
            _ = write(2, &bytes, bytes.count)
        #endif
    }

    /// Reports a direct read of `key` from ``unconfigured``.
    static func warnUnconfiguredRead(of key: String) {
        reportUnconfiguredRead(UnconfiguredRead(key: key, declaration: nil))
    }
}

extension AppContext {
    /// A read of ``AppContext/unconfigured``: a key read where no context was injected, which
    /// therefore got its code default.
    public struct UnconfiguredRead: Sendable, Hashable, CustomStringConvertible {
        /// The key read, as the code named it.
        public var key: String
        /// Where the ``ContextValue`` that read it was declared; `nil` for a direct read.
        public var declaration: Declaration?

        /// Says what was read, where, and how to inject a context.
        public var description: String {
            let reader = declaration.map { "@ContextValue declared at \($0.fileID):\($0.line) read" } ?? "read"
            return "\(reader) '\(key)' from AppContext.unconfigured, so it has its code default. "
                + "Inject a context: create the object that holds the property inside withAppContext(context) { … } "
                + "(it keeps that context), or read through a context passed to it."
        }
    }
}

extension AppContext.UnconfiguredRead {
    /// A place in the source: where a property wrapper was declared.
    public struct Declaration: Sendable, Hashable {
        /// The file as `Module/File.swift`.
        public var fileID: String
        /// The file's full path.
        public var filePath: String
        /// The line, from 1.
        public var line: Int
        /// The column, from 1.
        public var column: Int
    }
}

/// Runs `operation` with `context` as ``AppContext/current`` for the current task and the
/// tasks it creates.
///
/// ```swift
/// withAppContext(context.scope("beneficiaries")) {
///     BeneficiariesList().render()  // its @ContextValue reads beneficiaries.pageSize
/// }
/// ```
public func withAppContext<Result>(_ context: AppContext, operation: () throws -> Result) rethrows -> Result {
    try AppContext.$current.withValue(context, operation: operation)
}

/// Runs the async `operation` with `context` as ``AppContext/current``.
public func withAppContext<Result>(
    _ context: AppContext, isolation: isolated (any Actor)? = #isolation, operation: () async throws -> Result
) async rethrows -> Result {
    try await AppContext.$current.withValue(context, operation: operation, isolation: isolation)
}

/// Reads a flag or preference from the context that was current when the wrapper was
/// created.
///
/// The wrapper captures ``AppContext/current`` when its owner is initialised, as
/// swift-dependencies' `@Dependency` does, so a model made inside ``withAppContext(_:operation:)``
/// keeps reading that context from a UI framework's render pass, a callback or a detached
/// task. Only when none was current then (it captured ``AppContext/unconfigured``) does it
/// read the context current at the access.
///
/// ```swift
/// struct BeneficiariesList {
///     @ContextValue(.showPendingList) var showPendingList
///     @ContextValue(.pageSize) var pageSize
/// }
///
/// let list = withAppContext(context.scope("beneficiaries")) { BeneficiariesList() }
/// list.pageSize  // beneficiaries.pageSize, wherever this runs
/// ```
@propertyWrapper
public struct ContextValue<Value: FlagValueConvertible>: Sendable {
    private let read: @Sendable (AppContext) -> Value
    private let key: String
    private let defaultValue: Value
    private let captured: AppContext
    // Kept as given, and turned into strings only for a report: views make wrappers often.
    private let fileID: StaticString
    private let filePath: StaticString
    private let line: UInt
    private let column: UInt

    /// Reads a flag or user preference from the context current now.
    public init<Kind>(
        _ key: ContextKey<Value, Kind>, fileID: StaticString = #fileID, filePath: StaticString = #filePath,
        line: UInt = #line, column: UInt = #column
    ) {
        // The read is a closure made here, where the key's kind is known, so the wrapper's own
        // type depends on the value alone: `@ContextValue(.darkMode) var darkMode` is a
        // `ContextValue<Bool>` whether `.darkMode` is a flag or a preference.
        self.read = { $0[key] }
        self.key = key.name
        self.defaultValue = key.defaultValue
        self.captured = AppContext.current
        (self.fileID, self.filePath, self.line, self.column) = (fileID, filePath, line, column)
    }

    /// The key's value in the captured context (or, if none was captured, the current one).
    public var wrappedValue: Value {
        let context = captured.isUnconfigured ? AppContext.current : captured
        guard context.isUnconfigured else { return read(context) }
        let declaration = AppContext.UnconfiguredRead.Declaration(
            fileID: fileID.description, filePath: filePath.description, line: Int(line), column: Int(column))
        AppContext.reportUnconfiguredRead(AppContext.UnconfiguredRead(key: key, declaration: declaration))
        return defaultValue
    }
}

/// Makes sure the unconfigured-read hint prints once.
private enum UnconfiguredWarning {
    static let printed = Atomic<Bool>(false)

    static func shouldPrint() -> Bool {
        !printed.exchange(true, ordering: .relaxed)
    }
}

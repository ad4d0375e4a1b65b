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
    /// Module code can read it without a parameter; ``ContextValue`` reads through it.
    @TaskLocal public static var current: AppContext = .unconfigured

    /// The context used where none was injected: no definitions, so every key reads its code
    /// default. Well defined (never a crash); in debug builds the first read prints a hint.
    public static let unconfigured = AppContext(
        store: ContextStore(
            label: "unconfigured", inputs: ContextInputs(layout: .empty, environment: "unconfigured"),
            settings: ContextSettings(isUnconfigured: true)),
        keyPrefix: nil)

    /// Prints, once per process and only in debug builds, how to inject a context.
    static func warnUnconfiguredRead(of key: String) {
        #if DEBUG
            guard UnconfiguredWarning.shouldPrint() else { return }
            let message = """
                ensign: '\(key)' was read from AppContext.unconfigured, so it has its code default. \
                Inject a context to read configured values: wrap the code in \
                withAppContext(context) { … }, or pass the context to the module. \
                (Printed once; debug builds only.)

                """
            var bytes = Array(message.utf8)
            _ = write(2, &bytes, bytes.count)
        #endif
    }
}

/// Runs `operation` with `context` as ``AppContext/current`` for the current task and the
/// tasks it creates.
///
/// ```swift
/// withAppContext(context.scope("beneficiaries")) {
///     BeneficiariesModule().render()
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

/// Reads a flag or preference from ``AppContext/current``: the injected context of the
/// current task.
///
/// ```swift
/// struct BeneficiariesList {
///     @ContextValue(.showPendingList) var showPendingList
///     @ContextValue(.pageSize) var pageSize
/// }
/// ```
@propertyWrapper
public struct ContextValue<Value: FlagValueConvertible>: Sendable {
    private let read: @Sendable (AppContext) -> Value

    /// Reads a flag.
    public init(_ key: FlagKey<Value>) {
        read = { $0[key] }
    }

    /// Reads a user preference.
    public init(_ key: UserPreferenceKey<Value>) {
        read = { $0[key] }
    }

    /// The key's value in the current task's context.
    public var wrappedValue: Value { read(AppContext.current) }
}

/// Makes sure the unconfigured-read hint prints once.
private enum UnconfiguredWarning {
    static let printed = Atomic<Bool>(false)

    static func shouldPrint() -> Bool {
        !printed.exchange(true, ordering: .relaxed)
    }
}

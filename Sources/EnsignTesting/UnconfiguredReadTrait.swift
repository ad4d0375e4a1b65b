import Ensign
import Testing

/// A Swift Testing trait that records an issue for every read of ``Ensign/AppContext/unconfigured``
/// during a test, so a value that silently fell back to its code default fails the test.
///
/// Apply it to a suite (it applies to each of its tests) or to one test:
///
/// ```swift
/// import EnsignTesting
/// import Testing
///
/// @Suite(.failsOnUnconfiguredReads)
/// struct CheckoutTests {
///     @Test func showsTheNewFlow() throws {
///         let context = AppContext(values: ["checkout.newFlow": true])
///         let model = withAppContext(context) { CheckoutModel() }  // its @ContextValues keep `context`
///         #expect(model.usesNewFlow)
///     }
/// }
///
/// struct CheckoutModel {
///     @ContextValue(FlagKey("checkout.newFlow", default: false)) var usesNewFlow
/// }
/// ```
///
/// The issue names the key and, for a ``Ensign/ContextValue``, where the wrapper was declared.
/// Reads are seen in the test's task and the tasks it starts; a read on a thread or detached
/// task of its own is outside the test's scope and gets the usual one-time hint instead.
public struct UnconfiguredReadTrait: TestTrait, SuiteTrait, TestScoping {
    /// Applies to every test of a suite it is given to.
    public var isRecursive: Bool { true }

    /// Runs the test with reads of the unconfigured context recorded as issues.
    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        try await AppContext.withUnconfiguredReadHandler(Self.recordIssue) {
            try await function()
        }
    }

    /// Records `read` as an issue, at the `@ContextValue` declaration when there is one.
    @Sendable static func recordIssue(for read: AppContext.UnconfiguredRead) {
        let comment = Comment(rawValue: read.description)
        if let location = read.sourceLocation {
            Issue.record(comment, sourceLocation: location)
        } else {
            Issue.record(comment)
        }
    }
}

extension Trait where Self == UnconfiguredReadTrait {
    /// Records an issue for every read of ``Ensign/AppContext/unconfigured`` during the test.
    public static var failsOnUnconfiguredReads: Self { UnconfiguredReadTrait() }
}

extension AppContext.UnconfiguredRead {
    /// Where to attribute the issue: the `@ContextValue` declaration, when there is one.
    var sourceLocation: SourceLocation? {
        guard let declaration else { return nil }
        return SourceLocation(
            fileID: declaration.fileID, filePath: declaration.filePath, line: declaration.line,
            column: declaration.column)
    }
}

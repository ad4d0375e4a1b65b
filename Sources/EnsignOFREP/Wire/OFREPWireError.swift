/// Why a body is not the OFREP message it should be: where in it (a path such as
/// `flags[2].value`) and what was expected there.
///
/// ```swift
/// do { _ = try OFREPEvaluationRequest(jsonText: #"{"context": 3}"#) } catch {
///     print(error)  // context: expected an object, found the number 3
/// }
/// ```
public struct OFREPWireError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Where the problem is: `context`, `flags[2].value`; empty for the whole body.
    public var path: String
    /// What was wrong, and what was expected instead.
    public var message: String

    /// Creates an error at `path`.
    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    /// `path: message`, or the message alone for the whole body.
    public var description: String { path.isEmpty ? message : "\(path): \(message)" }
}

/// The machine-readable part of a refused request: what kind of problem it was.
///
/// Clients switch on the code; the message in ``ControlError`` is for people.
public enum ControlErrorCode: String, Sendable, Hashable, CaseIterable {
    /// The line is not a well-formed request: malformed JSON, a missing or mistyped member.
    case badRequest = "BAD_REQUEST"
    /// The `op` names no operation this server knows.
    case unknownOperation = "UNKNOWN_OP"
    /// The client speaks a protocol version this server does not.
    case unsupportedVersion = "UNSUPPORTED_VERSION"
    /// No flag or preference has the key.
    case notFound = "NOT_FOUND"
    /// The value does not meet the key's type or constraints, or the key cannot take it
    /// (toggling a flag that is not a bool).
    case invalidValue = "INVALID_VALUE"
    /// The server refuses: writes in production, or a peer of another user.
    case forbidden = "FORBIDDEN"
    /// The request line is longer than ``ControlProtocol/maximumLineLength``; the connection closes.
    case tooLarge = "TOO_LARGE"
    /// The server has as many connections as it accepts; try again later.
    case busy = "BUSY"
    /// The connection was idle for too long and is being closed.
    case idleTimeout = "IDLE_TIMEOUT"
    /// The operation needs something the app did not configure (an overrides file for `persist`).
    case unavailable = "UNAVAILABLE"
    /// A persisted write is in force for this run, but saving it to disk failed: it will not
    /// survive a restart (the app's status shows the problem until a save succeeds).
    case notPersisted = "NOT_PERSISTED"
    /// A bug in the server; the request may or may not have taken effect.
    case internalError = "INTERNAL"
}

/// A refused request: a code for programs and a sentence for people that says how to fix it.
///
/// On the wire: `{"code": "INVALID_VALUE", "message": "'beneficiaries.pageSize' value 500 is above the maximum 100"}`.
public struct ControlError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of problem.
    public var code: ControlErrorCode
    /// What was wrong and how to fix it.
    public var message: String

    /// Creates an error.
    public init(_ code: ControlErrorCode, _ message: String) {
        self.code = code
        self.message = message
    }

    /// `CODE: message`.
    public var description: String { "\(code.rawValue): \(message)" }
}

/// A mistake in how a command was called; exits with status 2.
struct UsageError: Error {
    let message: String

    init(_ message: String) {
        self.message = message
    }
}

/// A YAML document that could not be read: where, and what was wrong.
///
/// Its description is one line in the form compilers use, so editors and CI can annotate
/// it: `flags/app.yaml:3:5: error: found a tab character where indentation was expected`.
package struct YAMLError: Error, Sendable, Hashable {
    /// What kind of problem it is, for code that reacts to specific problems.
    package enum Kind: Sendable, Hashable {
        /// libyaml rejected the text (bad syntax, bad encoding, unterminated quote, …).
        case syntax
        /// The same key appears twice in one mapping.
        case duplicateKey
        /// An alias names an anchor that was never defined.
        case unknownAnchor
        /// One of the ``YAMLLimits`` was exceeded.
        case limitExceeded
        /// The file could not be read at all.
        case unreadable
        /// The text needs something this build lacks (YAML without the `YAML` trait) or that
        /// JSON cannot hold (an infinite number, a key that is not a scalar).
        case unsupported
    }

    /// The kind of problem.
    package var kind: Kind
    /// Where the problem is.
    package var location: SourcePosition
    /// What was wrong and, where possible, how to fix it.
    package var message: String

    /// Creates an error.
    package init(_ kind: Kind, at location: SourcePosition, _ message: String) {
        self.kind = kind
        self.location = location
        self.message = message
    }
}

extension YAMLError: CustomStringConvertible {
    /// `path:line:column: error: message`.
    package var description: String { "\(location): error: \(message)" }
}

extension YAMLError {
    /// The error for a text that is not JSON, read by a build without YAML: it says why the
    /// text is refused and what to ship instead, at the place the JSON reader stopped.
    package static func withoutYAMLSupport(_ jsonError: YAMLError) -> YAMLError {
        YAMLError(
            .unsupported, at: jsonError.location,
            "this build of Ensign has no YAML support (the package trait 'YAML' is off): the text is not JSON "
                + "(\(jsonError.message)); ship JSON, see `ensign export`")
    }
}

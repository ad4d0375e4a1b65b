/// Work the thread that parses a large file ahead does while it waits for the reader: it is a
/// whole ring of events ahead, and its core would otherwise idle.
///
/// The loader passes one that compiles a queued targeting rule (see `RuleCompilationPipeline`).
/// Each call does one small unit (a rule: about ten microseconds), so the thread goes back to
/// parsing as soon as the reader hands a batch back.
///
/// ```swift
/// let work = IdleWork { queue.compileOne() }
/// try parser.readEvents(from: bytes, file: name, whileParsedAhead: work) { reader in … }
/// ```
package struct IdleWork: Sendable {
    private let unit: @Sendable () -> Bool

    /// Work done in units: `unit` does one and returns whether there was one to do.
    package init(_ unit: @escaping @Sendable () -> Bool) {
        self.unit = unit
    }

    /// Does one unit; `false` when there was none (the thread then waits for the reader).
    func run() -> Bool { unit() }
}

import EnsignTestTraits
import Testing

/// Threads reading and writing a context tree at random, in a process of their own watched
/// for stalls (`StressWatchdog`), then the values checked: every owned key holds its
/// owner's last acknowledged write, never went backwards for a reader or an observer, and no
/// reload changed a key its files do not set. The scenarios are in `EnsignTestProbe/Stress`.
/// One at a time, so each process has the machine to itself, as far as the rest of the suite allows.
@Suite("Concurrency stress: a context tree under threads, checked for stalls and values", .serialized)
struct StressTests {
    @Test("Parent writes, child reads and child overrides never stall, and every value holds", .blocksItsThread)
    func childrenAndGrandchildren() throws {
        let figures = try StressHarness.run("children")
        #expect(figures.map { $0.perThread.values.allSatisfy { $0 > 0 } } ?? true, "every thread made progress")
    }

    @Test("Reloads racing writes of every root layer undo none of them", .blocksItsThread)
    func reloadsRacingWrites() throws {
        let figures = try StressHarness.run("reloads")
        #expect(figures.map { $0.perThread.values.allSatisfy { $0 > 0 } } ?? true, "every thread made progress")
    }

    @Test(
        "Everything at once: roots, children, scopes, observers, fleet, reloads and evaluation contexts",
        .blocksItsThread)
    func everythingAtOnce() throws {
        let figures = try StressHarness.run("mixed")
        #expect(figures.map { $0.perThread.values.allSatisfy { $0 > 0 } } ?? true, "every thread made progress")
    }
}

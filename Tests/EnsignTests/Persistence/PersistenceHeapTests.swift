import EnsignTestTraits
import Testing

/// Persisted writes leave nothing behind: each one used to leave about 110 bytes (its outcome
/// handler, a bare closure behind a lock, grew a reabstraction thunk per write; see
/// `LockedCallback`), which the soak showed as a heap that kept growing.
@Suite("What persisted writes leave behind")
struct PersistenceHeapTests {
    @Test(
        "Persisted overrides leave no heap behind, watched or not (measured in a process of its own)", .blocksItsThread,
        arguments: ["persisted-writes", "persisted-writes-watched"])
    func persistedWrites(scenario: String) throws {
        let retained = try HeapProbeRun.retainedBytesPerUnit(scenario: scenario, count: 1_000)
        // A few bytes a write are allocator and dispatch caches (and, watched, the reloads of
        // the app's own writes filling bounded stores); the leak was 108-128.
        #expect(retained <= 40, "\(retained) bytes per write")
    }
}

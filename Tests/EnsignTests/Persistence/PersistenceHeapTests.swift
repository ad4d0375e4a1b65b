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
        // 3,000 writes, so that what fills once and stays (allocator and dispatch caches; watched,
        // the bounded stores the reloads fill) counts for little per write: with 1,000, a run on
        // two busy cores measured 43 bytes, where quiet runs measure 8-29 and 3,000 measure 10-13
        // on busy cores. The leak was 108-128.
        let retained = try HeapProbeRun.retainedBytesPerUnit(scenario: scenario, count: 3_000)
        #expect(retained <= 40, "\(retained) bytes per write")
    }
}

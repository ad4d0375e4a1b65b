import EnsignSupport
import Synchronization

/// Faults injected into the library's own file writes, for tests: a full disk (`ENOSPC`) or
/// an I/O error (`EIO`) in every write under a directory, without root, a small file
/// system or a disk that really fails.
///
/// Keyed by directory, so tests running in parallel each fault their own files only. With
/// no fault injected a write pays one relaxed atomic load.
///
/// ```swift
/// FileSystemFaults.inject(ENOSPC, under: stateDirectory)
/// #expect(throws: ContextWriteError.self) { try context.setOverride(.pageSize, to: 50, persist: true) }
/// FileSystemFaults.clear(under: stateDirectory)
/// ```
package enum FileSystemFaults {
    private static let isAnyActive = Atomic<Bool>(false)
    private static let faults = LockedState<[String: Int32]>([:])

    /// Makes every write of a file under `directory` fail with `code` (after part of the
    /// data is written, as a full disk does) until ``clear(under:)``.
    package static func inject(_ code: Int32, under directory: String) {
        faults.withLock { faults in
            faults[directory] = code
            isAnyActive.store(true, ordering: .relaxed)
        }
    }

    /// Ends the fault injected under `directory`.
    package static func clear(under directory: String) {
        faults.withLock { faults in
            faults[directory] = nil
            isAnyActive.store(!faults.isEmpty, ordering: .relaxed)
        }
    }

    /// The error a write of `path` must fail with now, if any.
    static func fault(forWriting path: String) -> Int32? {
        guard isAnyActive.load(ordering: .relaxed) else { return nil }
        return faults.withLock { faults in
            faults.first { path.hasPrefix($0.key.hasSuffix("/") ? $0.key : $0.key + "/") }?.value
        }
    }
}

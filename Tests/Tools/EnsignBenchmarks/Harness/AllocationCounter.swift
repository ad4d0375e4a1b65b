import CAllocationCounter

/// Heap allocations counted by the `CAllocationCounter` target, which interposes `malloc` and
/// friends on glibc; unavailable elsewhere. Only allocations made inside ``counting(_:)`` are
/// counted, so the timed rounds run without the counter.
enum AllocationCounter {
    /// Allocations the process made while counting was on; `nil` when counting is unavailable.
    static var count: Int64? {
        let count = ensign_allocation_count()
        return count < 0 ? nil : count
    }

    /// The allocations counted while creating a 1,000-element `[Int]` (the fewest of three
    /// tries; the first also pays for the runtime's one-time set-up): at least one when the
    /// interposed `malloc` really sees the Swift runtime's allocations; `nil` when unavailable.
    static let selfTest: Int64? = counting {
        var fewest: Int64?
        for _ in 0..<3 {
            guard let before = count else { return nil }
            let array = [Int](repeating: opaqueZero, count: 1000 + opaqueZero)
            blackHole(array)
            guard let after = count else { return nil }
            fewest = min(fewest ?? .max, after - before)
        }
        return fewest
    }

    /// Runs `body` with counting on, then puts it back as it was (so a nested call, such as
    /// ``selfTest`` first evaluated inside one, leaves the outer one counting).
    static func counting<Result>(_ body: () throws -> Result) rethrows -> Result {
        let wasOn = ensign_allocation_counting(1)
        defer { ensign_allocation_counting(wasOn) }
        return try body()
    }

    /// Whether counting is available *and* passed ``selfTest``.
    static var isWorking: Bool { (selfTest ?? 0) >= 1 }

    /// Allocations per iteration of `body(iterations)`; `nil` when counting does not work.
    static func allocationsPerIteration(iterations: Int, _ body: (Int) throws -> Void) rethrows -> Double? {
        guard isWorking, let before = count else {
            try body(iterations)
            return nil
        }
        try counting { try body(iterations) }
        guard let after = count else { return nil }
        return Double(after - before) / Double(iterations)
    }
}

/// The C heap's figures, for the memory entry.
enum HeapStatistics {
    /// Bytes allocated and not freed; `nil` when the platform does not say.
    static var bytesInUse: Int? {
        let bytes = ensign_heap_bytes_in_use()
        return bytes < 0 ? nil : Int(bytes)
    }

    /// Returns free heap memory to the system, so resident size counts live data.
    static func trim() {
        ensign_trim_heap()
    }
}

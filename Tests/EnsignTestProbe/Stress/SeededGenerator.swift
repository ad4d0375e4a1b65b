/// SplitMix64: a small, fast generator whose whole state is its seed, so a stress run's
/// choices of operations can be replayed from the seed it prints.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    /// The generator of one thread: the run's seed mixed with the thread's index.
    init(seed: UInt64, stream: Int) {
        state = seed ^ (UInt64(truncatingIfNeeded: stream + 1) &* 0x9E37_79B9_7F4A_7C15)
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }

    /// True once in `count` draws, on average.
    mutating func oneIn(_ count: Int) -> Bool {
        Int.random(in: 0..<count, using: &self) == 0
    }
}

/// SplitMix64: a small, fast generator whose whole state is its seed, so a run's choices can
/// be replayed from the seed it prints, the same on every platform.
///
/// The model-based tests, the stress probe and the soak draw their operations from it.
///
/// ```swift
/// var random = SplitMix64(seed: 42)
/// let key = keys[Int(random.next(below: UInt64(keys.count)))]
/// ```
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// A generator that starts from `seed`.
    public init(seed: UInt64) {
        state = seed
    }

    /// The generator of one thread (or stream) of a run: the run's seed mixed with its index.
    public init(seed: UInt64, stream: Int) {
        state = seed ^ (UInt64(truncatingIfNeeded: stream + 1) &* 0x9E37_79B9_7F4A_7C15)
    }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }

    /// A number in `0..<bound` (the small modulo bias does not matter to a test's choices).
    public mutating func next(below bound: UInt64) -> UInt64 { next() % bound }

    /// A number in `0..<1`.
    public mutating func nextUnit() -> Double { Double(next() >> 11) / Double(UInt64(1) << 53) }

    /// True once in `count` draws, on average.
    public mutating func oneIn(_ count: Int) -> Bool {
        Int.random(in: 0..<count, using: &self) == 0
    }
}

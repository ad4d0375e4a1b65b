import Synchronization

/// Where measured results go, so the optimizer cannot prove them unused and delete the work.
private let sink = Atomic<Int>(0)

/// Always zero, but the optimizer cannot know it: indexing with it keeps a loop's input from
/// being hoisted out of the loop, without the retain and release an opaque copy would cost.
private let zeroSource = Atomic<Int>(0)

/// Consumes `value` in a way the optimizer must keep: a call it cannot inline that stores one
/// of the value's bytes into a global atomic. Costs about a nanosecond, in every entry alike.
@inline(never)
func blackHole<T>(_ value: T) {
    withUnsafeBytes(of: value) { bytes in
        sink.store(Int(bytes.first ?? 0), ordering: .relaxed)
    }
}

/// Zero, read from an atomic so that the optimizer treats it as unknown on every iteration.
@inline(__always)
var opaqueZero: Int {
    zeroSource.load(ordering: .relaxed)
}

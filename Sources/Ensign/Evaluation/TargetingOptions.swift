/// Choices that change how a ``TargetingRule`` is compiled and evaluated.
///
/// ```swift
/// let legacy = TargetingOptions(fractionalHashing: .v1)
/// let rule = try TargetingRule(compiling: json, options: legacy)
/// ```
package struct TargetingOptions: Sendable, Hashable {
    /// How `fractional` turns a hash into a bucket; flagd's current ``FractionalHashing/v2`` by default.
    package var fractionalHashing: FractionalHashing

    /// Creates options; the defaults match current flagd.
    package init(fractionalHashing: FractionalHashing = .v2) {
        self.fractionalHashing = fractionalHashing
    }
}

/// The incompatible ways flagd has mapped a subject to a `fractional` bucket.
///
/// Both hash the bucketing key (by default the flag key followed by the targeting key) with
/// MurmurHash3 x86 32-bit, seed 0, over its UTF-8 bytes. They differ in how the hash picks a
/// bucket, so the same subject can land in different variants: pick the one your other flagd
/// evaluators use. Both read `fractional`'s arguments as flagd's Go evaluator does (a bucketing
/// value that is not a string is read as a bucket, a missing one falls back to the targeting
/// key; see ``TargetingRule``).
///
/// flagd has announced a third scheme ("v3": any bucketing value hashed as canonical CBOR, the
/// default key as CBOR of `[flagKey, targetingKey]`), which its Python core implements and its
/// Go daemon does not yet. It would be a third case here; it changes how the bucketing value
/// is read as well as how it is hashed.
package enum FractionalHashing: Sendable, Hashable, CaseIterable {
    /// flagd before the high-precision change: the hash read as a signed 32-bit integer,
    /// `abs(hash) / Int32.max * 100` compared with each variant's cumulative percentage
    /// (`100 * weight / totalWeight`). Fractional weights are truncated to integers.
    case v1
    /// Current flagd: `(UInt64(hash) * totalWeight) >> 32` compared with cumulative integer
    /// weights, exact for any total weight up to `Int32.max`. Weights must be whole numbers
    /// (`50.0` is one); another weight makes `fractional` evaluate to `null`.
    case v2
}

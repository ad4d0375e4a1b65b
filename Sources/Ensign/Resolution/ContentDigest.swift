/// A 64-bit FNV-1a digest built from parts: the same parts give the same digest in every
/// process, on every machine, which Swift's `Hasher` (seeded per process) does not.
///
/// A digest, not a secret: it tells configurations apart (`ensign serve`'s ETags and event
/// ids, which every replica must compute alike), it does not hide them. Each text part is
/// preceded by its length, so `("ab", "c")` and `("a", "bc")` differ.
package struct ContentDigest: Sendable, Hashable {
    /// The digest so far.
    package private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    package init() {}

    /// The digest of `bytes` alone.
    package init(of bytes: some Sequence<UInt8>) {
        add(bytes: bytes)
    }

    /// Adds bytes as they are.
    package mutating func add(bytes: some Sequence<UInt8>) {
        // Contiguous bytes (an array, a string's UTF-8) in a plain loop over a buffer: through
        // the generic iterator, a request's digest cost more than answering it.
        let done: Void? = bytes.withContiguousStorageIfAvailable { buffer in add(buffer: buffer) }
        if done == nil {
            for byte in bytes { add(byte: byte) }
        }
    }

    private mutating func add(buffer: UnsafeBufferPointer<UInt8>) {
        var value = self.value
        for byte in buffer {
            value ^= UInt64(byte)
            value = value &* 0x0100_0000_01b3
        }
        self.value = value
    }

    private mutating func add(byte: UInt8) {
        value ^= UInt64(byte)
        value = value &* 0x0100_0000_01b3
    }

    /// Adds an integer's eight bytes.
    package mutating func add(_ number: UInt64) {
        var remaining = number
        for _ in 0..<8 {
            add(byte: UInt8(truncatingIfNeeded: remaining))
            remaining >>= 8
        }
    }

    /// Adds a text, preceded by its length.
    package mutating func add(_ text: String) {
        var text = text
        text.withUTF8 { utf8 in
            add(UInt64(utf8.count))
            add(buffer: utf8)
        }
    }

    /// Adds an optional text; `nil` differs from every text, the empty one included.
    package mutating func add(_ text: String?) {
        if let text {
            add(1)
            add(text)
        } else {
            add(0)
        }
    }

    /// The digest as 16 lower-case hexadecimal digits.
    package var hexadecimal: String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}

extension ContextSnapshot {
    /// A digest of everything that decides what the keys `isIncluded` accepts evaluate to, for
    /// any evaluation context: each key's definition (type, state, variants, default variant,
    /// metadata, targeting rule as written, and the shared evaluators), the value the files and
    /// the fleet give it, its preference and override, and the context's own evaluation context.
    ///
    /// Where values come from (paths, lines, who set an override and when) is left out: two
    /// processes serving the same configuration from different places get the same digest,
    /// and a write that changes nothing keeps it.
    package func contentDigest(including isIncluded: (FlagDefinition) -> Bool) -> ContentDigest {
        var digest = ContentDigest()
        digest.add(inputs.evaluationContext.jsonValue.jsonText)
        for (name, evaluator) in layout.definitions.evaluators.sorted(by: { $0.key < $1.key }) {
            digest.add(name)
            digest.add(evaluator.value.jsonText)
        }
        for definition in layout.definitionBySlot where isIncluded(definition) {
            digest.add(definition.key)
            digest.add(definition.kind.rawValue)
            digest.add(definition.type.rawValue)
            digest.add(definition.isEnabled ? 1 : 0)
            digest.add(definition.configurationProblem)
            digest.add(UInt64(definition.variants.names.count))
            for variant in definition.variants {
                digest.add(variant.name)
                digest.add(variant.value.jsonText)
            }
            digest.add(definition.defaultVariant)
            digest.add(JSONValue.object(definition.metadata).jsonText)
            digest.add(definition.targeting?.value.jsonText)
            let fromFiles = SnapshotResolver.staticEntry(definition, inputs: inputs)
            digest.add(fromFiles.value?.jsonText)
            digest.add(inputs.preferences[definition.key]?.value.jsonText)
            digest.add(inputs.overrides[definition.key]?.value.jsonText)
        }
        return digest
    }
}

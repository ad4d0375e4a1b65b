/// For a prefix scope: the prefixed twin of each key read through it, made once per key so
/// that reads through the scope keep the slot cache and never build strings.
final class ScopedKeyTable: Sendable {
    let prefix: String
    private let identities = LockedState<[ObjectIdentifier: (original: KeyIdentity, scoped: KeyIdentity)]>([:])

    init(prefix: String) {
        self.prefix = prefix
    }

    func identity(for identity: KeyIdentity) -> KeyIdentity {
        identities.withLock { table in
            if let entry = table[ObjectIdentifier(identity)] { return entry.scoped }
            // Keeping `original` alive keeps its ObjectIdentifier from being reused.
            let scoped = KeyIdentity(name: prefix + identity.name, kind: identity.kind)
            table[ObjectIdentifier(identity)] = (identity, scoped)
            return scoped
        }
    }
}

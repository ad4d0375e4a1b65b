import EnsignSupport

/// For a prefix scope: the prefixed twin of each key read through it, made once per key name
/// so that reads through the scope keep the slot cache and never build strings.
///
/// Twins are kept by name, so the table is as large as the set of names read through the
/// scope. A typed key's identity finds its twin through a small cache by identity (a
/// pointer hash rather than a string hash); keys made afresh for every read, as a view that
/// declares `@ContextValue(FlagKey("pageSize", default: 20))` makes one each time it is
/// created, would fill that cache, so it is emptied whenever it reaches its bound.
final class ScopedKeyTable: Sendable {
    let prefix: String
    private let state = LockedState(State())

    private struct State {
        var twinsByName: [Name: KeyIdentity] = [:]
        /// Keeping `original` alive keeps its ObjectIdentifier from being reused.
        var byIdentity: [ObjectIdentifier: (original: KeyIdentity, scoped: KeyIdentity)] = [:]
    }

    /// A flag and a preference may share a name; each has its own twin.
    private struct Name: Hashable {
        var name: String
        var kind: FlagDefinition.Kind
    }

    /// How many identities the fast cache holds before it starts again.
    static let identityCacheBound = 512

    init(prefix: String) {
        self.prefix = prefix
    }

    func identity(for identity: KeyIdentity) -> KeyIdentity {
        state.withLock { state in
            if let entry = state.byIdentity[ObjectIdentifier(identity)] { return entry.scoped }
            let name = Name(name: identity.name, kind: identity.kind)
            let scoped = state.twinsByName[name] ?? KeyIdentity(name: prefix + identity.name, kind: identity.kind)
            state.twinsByName[name] = scoped
            if state.byIdentity.count >= Self.identityCacheBound { state.byIdentity.removeAll() }
            state.byIdentity[ObjectIdentifier(identity)] = (identity, scoped)
            return scoped
        }
    }

    /// How many twins and cached identities the table holds (for tests).
    var counts: (twins: Int, cachedIdentities: Int) {
        state.withLock { ($0.twinsByName.count, $0.byIdentity.count) }
    }
}

import Testing

@testable import Ensign

/// `FlagKey` and `UserPreferenceKey` are one generic type whose kind is a type parameter:
/// the APIs open to both kinds are one generic API each, and the writes open to one kind
/// keep that restriction through the type. (That a flag key is refused by `setPreference`
/// is a compile-time fact, checked by compiling code in `KeyKindRestrictionTests`.)
@Suite("One key type for flags and preferences")
struct ContextKeyTests {
    @Test("FlagKey and UserPreferenceKey are ContextKey of their two kinds")
    func aliases() {
        #expect(FlagKey<Bool>.self == ContextKey<Bool, FlagKeyKind>.self)
        #expect(UserPreferenceKey<Int>.self == ContextKey<Int, PreferenceKeyKind>.self)
        #expect(FlagKeyKind.definitionKind == .flag)
        #expect(PreferenceKeyKind.definitionKind == .preference)
        let key = FlagKey("beneficiaries.pageSize", default: 10)
        #expect(key.name == "beneficiaries.pageSize")
        #expect(key.defaultValue == 10)
    }

    @Test("A flag key and a preference key of the same name each resolve as their own kind")
    func sameNameKeepsKind() throws {
        let flag = FlagKey("appearance.darkMode", default: true)
        let preference = UserPreferenceKey("appearance.darkMode", default: true)
        #expect(flag.identity.kind == .flag)
        #expect(preference.identity.kind == .preference)
        #expect(flag.identity !== preference.identity)

        // Both read the key's one value, through the same generic subscript.
        let context = try ContextFixtures.context()
        try context.setPreference(preference, to: false)
        #expect(context[flag] == false)
        #expect(context[preference] == false)
        #expect(context.details(for: preference).reason == .preference)

        // Through a scope, each gets a twin of its own kind.
        let scope = context.scope("appearance")
        let (shortFlag, shortPreference) = (
            FlagKey("darkMode", default: true), UserPreferenceKey("darkMode", default: true)
        )
        #expect(scope[shortFlag] == false)
        #expect(scope[shortPreference] == false)
        let scopedKeys = try #require(scope.scopedKeys)
        #expect(scopedKeys.identity(for: shortFlag.identity).kind == .flag)
        #expect(scopedKeys.identity(for: shortPreference.identity).kind == .preference)
        #expect(scopedKeys.counts.twins == 2)
    }

    @Test("The user's value is set only for a preference; overrides take either kind, as before")
    func writesKeepTheirKinds() throws {
        let context = try ContextFixtures.context()
        try context.setPreference(.darkMode, to: true)
        #expect(context[.darkMode] == true)
        // One generic setOverride and removeOverride, for a preference as for a flag.
        try context.setOverride(.darkMode, to: false)
        try context.setOverride(.pageSize, to: 50)
        #expect(context.details(for: .darkMode).reason == .override)
        #expect(context[.darkMode] == false)
        #expect(context[.pageSize] == 50)
        context.removeOverride(.darkMode)
        context.removeOverride(.pageSize)
        #expect(context[.darkMode] == true)
        #expect(context[.pageSize] == 20)
        // By name, where the type cannot tell, a flag is still refused as a preference.
        #expect(throws: ContextWriteError.notAPreference("beneficiaries.pageSize")) {
            try context.setPreference(keyNamed: "beneficiaries.pageSize", to: 50)
        }
        try context.batch { batch in
            try batch.setOverride(.pageSize, to: 30)
            try batch.setPreference(.darkMode, to: false)
        }
        #expect(context[.pageSize] == 30)
        #expect(context.details(for: .darkMode).reason == .preference)
    }

    @Test("One generic function and one property wrapper serve both kinds")
    func genericOverBothKinds() throws {
        func summary<Value, Kind>(of key: ContextKey<Value, Kind>, in context: AppContext) -> String {
            "\(key.name)=\(context[key]) \(context.snapshot[key]) \(context.details(for: key).value)"
        }
        struct Screen {
            @ContextValue(.pageSize) var pageSize
            @ContextValue(.darkMode) var darkMode
        }
        let context = try ContextFixtures.context()
        try context.setPreference(.darkMode, to: true)
        #expect(summary(of: FlagKey<Int>.pageSize, in: context) == "beneficiaries.pageSize=20 20 20")
        #expect(summary(of: UserPreferenceKey<Bool>.darkMode, in: context) == "appearance.darkMode=true true true")
        let screen = withAppContext(context) { Screen() }
        #expect(screen.pageSize == 20)
        #expect(screen.darkMode == true)
    }
}

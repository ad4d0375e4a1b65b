import Ensign
import EnsignDebugMenu
import EnsignTestSupport
import Testing

@Suite("The child a subtree's overrides live in")
@MainActor
struct OverrideChildCacheTests {
    @Test("The same parent gets the same configured child; configure runs once; the parent is untouched")
    func sameParent() throws {
        let parent = try BeneficiariesFixture.context()
        let cache = OverrideChildCache()
        var runs = 0
        let configure: (AppContext) throws -> Void = { child in
            runs += 1
            try child.setOverride(keyNamed: "beneficiaries.showPendingList", to: true)
        }
        let first = cache.child(of: parent, label: "preview", configure: configure)
        let second = cache.child(of: parent, label: "preview", configure: configure)
        #expect(first === second)
        #expect(runs == 1)
        #expect(first.value(forKeyNamed: "beneficiaries.showPendingList") == true)
        #expect(parent.value(forKeyNamed: "beneficiaries.showPendingList") == false)
        #expect(cache.lastProblem == nil)
    }

    @Test("Another parent gets a child of its own, configured again")
    func anotherParent() throws {
        let cache = OverrideChildCache()
        let first = try BeneficiariesFixture.context()
        let second = try BeneficiariesFixture.context(environment: "production")
        let configure: (AppContext) throws -> Void = { try $0.setOverride(keyNamed: "beneficiaries.pageSize", to: 50) }
        let childOfFirst = cache.child(of: first, label: "preview", configure: configure)
        let childOfSecond = cache.child(of: second, label: "preview", configure: configure)
        #expect(childOfFirst !== childOfSecond)
        #expect(childOfSecond.environment == "production")
        #expect(childOfSecond.value(forKeyNamed: "beneficiaries.pageSize") == 50)
        #expect(second.value(forKeyNamed: "beneficiaries.pageSize") == 20)
    }

    @Test("An override the child refuses is left out, with its reason kept; the child still serves")
    func refusedOverride() throws {
        let parent = try BeneficiariesFixture.context()
        let cache = OverrideChildCache()
        let child = cache.child(of: parent, label: "too big") {
            try $0.setOverride(keyNamed: "beneficiaries.pageSize", to: 500)
        }
        #expect(cache.lastProblem?.contains("too big") == true)
        #expect(cache.lastProblem?.contains("beneficiaries.pageSize") == true)
        #expect(child.value(forKeyNamed: "beneficiaries.pageSize") == 20)
    }

    @Test("A preview's parent made from values takes the override of a key it has; one without the key refuses it")
    func previewParents() throws {
        let key = FlagKey<Bool>("beneficiaries.showPendingBeneficiariesList", default: false)
        let configure: (AppContext) throws -> Void = { try $0.setOverride(key, to: true) }

        let cache = OverrideChildCache()
        let parent = AppContext(values: ["beneficiaries.showPendingBeneficiariesList": false])
        #expect(cache.child(of: parent, label: "preview", configure: configure)[key] == true)
        #expect(cache.lastProblem == nil)
        #expect(parent[key] == false)

        for empty in [AppContext(values: [:]), AppContext.unconfigured] {
            let emptyCache = OverrideChildCache()
            let child = emptyCache.child(of: empty, label: "preview", configure: configure)
            #expect(child[key] == false)
            #expect(emptyCache.lastProblem?.contains("beneficiaries.showPendingBeneficiariesList") == true)
        }
    }
}

import Testing

@testable import Ensign

/// The shrunk sequences the model-based tests found, kept as data rows: each failed before
/// the fix named in its description.
@Suite("Model-based: sequences that once disagreed with the model")
struct ModelRegressionTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var initial: ModelDisk
        var operations: [ModelOperation]

        var testDescription: String { name }
    }

    /// Files every definitions version accepts (no `app.size` of 7).
    static let narrowable = ModelDisk(
        definitions: .base, environment: .targetAndDark, deployments: [.sizeAndMode, .sizeAndMode])

    static let files = ModelDisk(
        definitions: .base, environment: .sizeAndMode, deployments: [.targetAndDark, .flagsAndLanguage])

    static let cases: [Case] = [
        Case(
            name: "an overlay edit after a failed reload does not apply against definitions that changed on disk",
            initial: files,
            operations: [
                .writeDefinitions(.invalidDefault), .reloadChanged, .writeDeployment(index: 0, .flagsAndLanguage),
                .reloadChanged,
            ]),
        Case(
            name: "a fixed overlay after a failed reload brings the new definitions with it",
            initial: files,
            operations: [
                .writeDefinitions(.narrowed), .reloadChanged, .writeDeployment(index: 1, .sizeAndMode), .reloadChanged,
            ]),
        Case(
            name: "a write into a preferences file that no longer parses keeps the app's earlier values",
            initial: files,
            operations: [
                .setPreference(context: 0, key: "p.dark", value: .bool(false)), .editPreferencesFile(.garbage),
                .batch(
                    context: 0, items: [.setOverride("app.size", .int(4)), .setPreference("p.lang", .string("en"))]),
            ]),
        Case(
            name: "a write into an emptied overrides file keeps the app's earlier values",
            initial: files,
            operations: [
                .setOverride(context: 0, key: "app.target", value: .bool(true), persist: true, viaScope: false),
                .editOverridesFile(.empty),
                .setOverride(context: 0, key: "app.size", value: .int(2), persist: true, viaScope: true),
                .editOverridesFile(.garbage),
                .setOverride(context: 0, key: "app.extra", value: .int(1), persist: true, viaScope: true),
            ]),
        Case(
            name: "a write into an unreadable overrides file keeps another process's value it had merged",
            initial: files,
            operations: [
                .editOverridesFile(.set("app.flag", .bool(false))),
                .setOverride(context: 0, key: "p.dark", value: .bool(true), persist: true, viaScope: false),
                .editOverridesFile(.garbage), .removeAllOverrides(context: 0),
            ]),
        Case(
            name: "a batch that removes an override and sets it again removes the persisted value",
            initial: files,
            operations: [
                .editOverridesFile(.set("app.size", .int(7))), .reload,
                .batch(context: 0, items: [.removeOverride("app.size"), .setOverride("app.size", .int(9))]), .restart,
            ]),
        Case(
            name: "a batch's evaluation context is kept when no flag is targeted yet",
            initial: files,
            operations: [
                .writeDefinitions(.retargeted), .reload,
                .batch(context: 0, items: [.setCountry("DE"), .setCountry("FR")]),
                .writeDefinitions(.base), .reload,
            ]),
        Case(
            name: "a write that fails on a full disk leaves an unreadable file in place, not set aside",
            initial: files,
            operations: [
                .setWriteFault(true), .editOverridesFile(.garbage),
                .setOverride(context: 0, key: "app.mode", value: .string("a"), persist: true, viaScope: false),
                .setWriteFault(false), .restart,
            ]),
        Case(
            name: "writes that failed on a full disk are saved with the next write, and survive a restart",
            initial: files,
            operations: [
                .setWriteFault(true),
                .setOverride(context: 0, key: "app.size", value: .int(4), persist: true, viaScope: false),
                .setPreference(context: 0, key: "p.lang", value: .string("de")),
                .removeOverride(context: 0, key: "app.size"),
                .reload, .setWriteFault(false), .restart,
            ]),
        Case(
            name: "a child's observers hear of a scope override that new definitions no longer accept",
            initial: narrowable,
            operations: [
                .makeChild(slot: 1, parent: 0),
                .setOverride(context: 1, key: "app.mode", value: .string("c"), persist: false, viaScope: false),
                .writeDefinitions(.narrowed), .reload,
            ]),
        Case(
            name: "a grandchild hears of it too when its parent saw no change",
            initial: ModelDisk(
                definitions: .base, environment: .targetAndDark, deployments: [.sizeAndMode, .sizeAndMode]),
            operations: [
                .makeChild(slot: 1, parent: 0), .makeChild(slot: 2, parent: 1),
                .setOverride(context: 1, key: "app.extra", value: .int(2), persist: false, viaScope: false),
                .setOverride(context: 2, key: "app.size", value: .int(9), persist: false, viaScope: true),
                .observe(slot: 0, context: 2, key: "app.size", viaScope: false),
                .writeDefinitions(.narrowed), .reloadChanged,
            ]),
    ]

    @Test("The sequence agrees with the model", arguments: cases)
    func agrees(_ sequence: Case) {
        let failure = ModelRun(initial: sequence.initial, operations: sequence.operations).run()
        #expect(failure == nil, "\(failure.map(\.description) ?? "")")
    }
}

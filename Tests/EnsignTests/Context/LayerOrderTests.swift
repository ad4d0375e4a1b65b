import EnsignTestSupport
import Testing

@testable import Ensign

@Suite("Resolution through the layers")
struct LayerOrderTests {
    @Test("Every layer wins over the ones below it, and provenance names the winner")
    func layerPairs() throws {
        let context = try ContextFixtures.context(
            environment: "development",
            environmentOverlay: BeneficiariesFixture.developmentOverlay,
            deploymentOverlays: ["flags:\n  beneficiaries.pageSize: 40\n", "flags:\n  beneficiaries.pageSize: 50\n"])

        // Code default: a key no file defines.
        #expect(context[.undefinedFlag] == true)
        #expect(context.details(for: .undefinedFlag).errorCode == .flagNotFound)
        // OpenFeature: an error code always comes with reason ERROR.
        #expect(context.details(for: .undefinedFlag).reason == .error)
        #expect(context.details(for: .undefinedFlag).source.layer == .codeDefault)

        // Definition default beats the code default.
        #expect(context[.sortOrder] == .recent)
        #expect(context.details(for: .sortOrder).source.layer == .definition)
        #expect(context.details(for: .sortOrder).source.location?.line == 9)

        // Inline environment value beats the definition default.
        #expect(context[.showPendingList] == true)
        #expect(context.details(for: .showPendingList).source.layer == .environment)
        #expect(context.details(for: .showPendingList).reason == .staticValue)

        // Deployment files beat the environment overlay, and the last deployment file wins.
        #expect(context[.pageSize] == 50)
        let pageSize = context.details(for: .pageSize)
        #expect(pageSize.source.layer == .deployment)
        #expect(pageSize.source.location == SourcePosition(file: "<deployment 2>", line: 2, column: 27))

        // Runtime override beats everything in files.
        try context.setOverride(.pageSize, to: 60, actor: "test")
        #expect(context[.pageSize] == 60)
        #expect(context.details(for: .pageSize).reason == .override)
        #expect(context.details(for: .pageSize).source.actor == "test")
        #expect(context.details(for: .pageSize).source.time != nil)

        // A child's scope override beats the parent's override; the parent is unaffected.
        let child = try context.makeChild(label: "preview") { try $0.setOverride(.pageSize, to: 70) }
        #expect(child[.pageSize] == 70)
        #expect(child.details(for: .pageSize).source.layer == .scopeOverride)
        #expect(context[.pageSize] == 60)

        // Removing the override uncovers the deployment value again.
        context.removeOverride(.pageSize)
        #expect(context[.pageSize] == 50)
    }

    @Test("The environment overlay file beats the inline environments: value")
    func environmentFileBeatsInline() throws {
        let context = try ContextFixtures.context(
            environment: "development", environmentOverlay: "flags:\n  beneficiaries.showPendingList: false\n")
        #expect(context[.showPendingList] == false)
        #expect(context.details(for: .showPendingList).source.location?.file == "<environment development>")
    }

    @Test("Targeting beats files; a null result falls back with DEFAULT")
    func targeting() throws {
        let context = try ContextFixtures.context(deploymentOverlays: ["flags:\n  transfers.newFlow: false\n"])
        #expect(context[.newFlow] == false)
        #expect(context.details(for: .newFlow).reason == .defaultValue)
        #expect(context.details(for: .newFlow).source.layer == .deployment)
        context.setEvaluationContext(EvaluationContext(targetingKey: "user-1", attributes: ["country": "FR"]))
        #expect(context[.newFlow] == true)
        let details = context.details(for: .newFlow)
        #expect(details.reason == .targetingMatch)
        #expect(details.variant == "on")
        #expect(details.source.layer == .targeting)
    }

    @Test("A preference beats files, and an override beats the preference")
    func preferenceLayer() throws {
        let context = try ContextFixtures.context(deploymentOverlays: ["preferences:\n  appearance.darkMode: false\n"])
        try context.setPreference(.darkMode, to: true)
        #expect(context[.darkMode] == true)
        #expect(context.details(for: .darkMode).reason == .preference)
        try context.setOverride(.darkMode, to: false)
        #expect(context[.darkMode] == false)
        #expect(context.details(for: .darkMode).reason == .override)
    }

    @Test("A value of another type gives the code default with TYPE_MISMATCH, never a crash")
    func typeMismatch() throws {
        let context = try ContextFixtures.context()
        #expect(context[.newFlowAsInt] == -1)
        let details = context.details(for: .newFlowAsInt)
        #expect(details.errorCode == .typeMismatch)
        #expect(details.reason == .error)
        #expect(details.errorMessage?.contains("reads it as an int") == true)
    }

    @Test("A disabled flag gives the code default with DISABLED; an override still applies")
    func disabled() throws {
        let context = try AppContext(
            definitions: "flags:\n  old: { state: DISABLED, variants: { a: true, b: false }, defaultVariant: a }\n")
        let key = FlagKey("old", default: false)
        #expect(context[key] == false)
        #expect(context.details(for: key).reason == .disabled)
        try context.setOverride(key, to: true)
        #expect(context[key] == true)
    }

    @Test("Writes are checked like files: unknown keys, wrong types and bounds are refused")
    func writeValidation() throws {
        let context = try ContextFixtures.context()
        #expect(
            throws: ContextWriteError.invalidValue(
                key: "beneficiaries.pageSize", problem: .aboveMaximum(.int(500), maximum: 100))
        ) {
            try context.setOverride(.pageSize, to: 500)
        }
        #expect(throws: ContextWriteError.self) { try context.setOverride(keyNamed: "beneficiaries.pagesize", to: 5) }
        do {
            try context.setOverride(keyNamed: "beneficiaries.pagesize", to: 5)
        } catch {
            #expect(error.description.contains("did you mean 'beneficiaries.pageSize'?"))
        }
        #expect(throws: ContextWriteError.notAPreference("beneficiaries.pageSize")) {
            try context.setPreference(keyNamed: "beneficiaries.pageSize", to: 5)
        }
        #expect(context[.pageSize] == 20)
    }

    @Test("A context from plain values infers types and defaults")
    func fromValues() {
        let context = AppContext(values: ["beneficiaries.showPendingList": true, "beneficiaries.pageSize": 50])
        #expect(context[.showPendingList] == true)
        #expect(context[.pageSize] == 50)
        #expect(context[.sortOrder] == .name)
    }

    @Test("Loading files with errors throws every diagnostic")
    func loadErrors() {
        #expect {
            try AppContext(definitions: "flags:\n  a: { type: int, default: x }\n  b: { type: nope }\n")
        } throws: { error in
            (error as? AppContextLoadError)?.diagnostics.filter(\.isError).count == 2
        }
    }
}

@Suite("Explaining a key's value")
struct ExplainTests {
    @Test("explain lists every layer with a value, lowest first, and marks the winner")
    func layersAndWinner() throws {
        let context = try ContextFixtures.context(
            environment: "development", environmentOverlay: BeneficiariesFixture.developmentOverlay,
            deploymentOverlays: ["flags:\n  beneficiaries.pageSize: 40\n"])
        try context.setOverride(.pageSize, to: 60, actor: "cli")
        let explanation = context.explain(keyNamed: "beneficiaries.pageSize")
        #expect(explanation.layers.map(\.source.layer) == [.definition, .environment, .deployment, .override])
        #expect(explanation.layers.map(\.value) == [20, 30, 40, 60])
        #expect(explanation.layers.map(\.isWinner) == [false, false, false, true])
        #expect(explanation.layers[2].source.location?.file == "<deployment 1>")
        #expect(explanation.recentChanges.last?.cause == .override(actor: "cli"))
        context.removeOverride(.pageSize)
        #expect(context.explain(keyNamed: "beneficiaries.pageSize").layers.map(\.isWinner) == [false, false, true])
    }

    @Test("A null targeting result is listed but does not win")
    func targetingNull() throws {
        let context = try ContextFixtures.context()
        let explanation = context.explain(keyNamed: "transfers.newFlow")
        #expect(explanation.layers.map(\.source.layer) == [.definition, .targeting])
        #expect(explanation.layers.map(\.isWinner) == [true, false])
        #expect(explanation.layers[1].note == "targeting returned null: the files decide")
    }
}

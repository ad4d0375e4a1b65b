import EnsignTestSupport
import EnsignTooling
import Foundation
import Testing

@testable import Ensign

@Suite("validate: values that targeting decides before")
struct TargetingPrecedenceTests {
    static let definitions = """
        version: 1
        flags:
          checkout.newFlow:
            default: false
            environments: { development: true }
            targeting:
              if:
                - in: [{ var: country }, [FR]]
                - false
                - null
          checkout.plain: { default: false, environments: { development: true } }
          checkout.off:
            state: DISABLED
            variants: { "on": true, "off": false }
            defaultVariant: "off"
            targeting: { if: [true, "on", null] }
        """

    @Test("An overlay or inline value for a targeted flag is a warning naming the rule's position")
    func warnsWhereTargetingDecidesFirst() throws {
        let directory = try TemporaryDirectory()
        let file = try directory.write("app.yaml", Self.definitions)
        let overlay = try directory.write(
            "environments/development.yaml", "flags:\n  checkout.newFlow: true\n  checkout.plain: true\n")
        let deploy = try TemporaryDirectory()
        let deployment = try deploy.write("flags.yaml", "flags:\n  checkout.newFlow: false\n  checkout.off: true\n")
        let report = ConfigValidator().validate(paths: [directory.path, deployment])
        let message =
            "warning: 'checkout.newFlow' targeting at \(file):7:7 decides first; this value applies only where the"
            + " rule returns null"
        #expect(
            Set(report.diagnostics.map(\.description)) == [
                "\(file):5:34: \(message)", "\(overlay):2:21: \(message)", "\(deployment):2:21: \(message)",
            ])
        #expect(report.errorCount == 0)
    }

    @Test("Why it warns: where the rule matches, the environment's value does not apply")
    func whyItWarns() throws {
        let context = try AppContext(definitions: Self.definitions, environment: "development")
        #expect(context.value(forKeyNamed: "checkout.newFlow") == true)
        context.setEvaluationContext(EvaluationContext(attributes: ["country": "FR"]))
        #expect(context.value(forKeyNamed: "checkout.newFlow") == false)
        #expect(context.details(forKeyNamed: "checkout.newFlow").reason == .targetingMatch)
    }
}

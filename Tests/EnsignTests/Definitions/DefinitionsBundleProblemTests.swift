import EnsignTestSupport
import EnsignTooling
import Foundation
import Testing

@testable import Ensign

/// A bundle someone edited, truncated or wrote by hand: every problem is an error at the
/// bundle's own line and column, and nothing of a broken bundle is loaded.
@Suite("Definitions bundles: broken bundles")
struct DefinitionsBundleProblemTests {
    /// A bundle text and the start of the error it must give (after the file's path).
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var text: String
        var error: String
        var testDescription: String { name }
    }

    static let good = """
        {
          "ensignBundle": 1,
          "definitions": {
            "app.yaml": [{"version": 1, "flags": {"pageSize": {"type": "int", "default": 20, "maximum": 100}}}]
          },
          "environments": {"production": [{"flags": {"pageSize": 50}}]}
        }
        """

    static let cases: [Case] = [
        Case(name: "not an object", text: "[1]\n", error: "1:1: error: a definitions bundle is one JSON object"),
        Case(
            name: "no version member", text: "{\n  \"definitions\": {}\n}\n",
            error: "1:1: error: not a definitions bundle: it has no 'ensignBundle' member"),
        Case(
            name: "a version this build does not read",
            text: good.replacingOccurrences(of: "\"ensignBundle\": 1", with: "\"ensignBundle\": 2"),
            error: "2:19: error: 'ensignBundle' is 2; this build of Ensign reads bundles of version 1"),
        Case(
            name: "a misspelt member", text: good.replacingOccurrences(of: "\"definitions\"", with: "\"defintions\""),
            error: "3:3: error: unknown bundle member 'defintions'"),
        Case(
            name: "documents that are not a list",
            text: good.replacingOccurrences(
                of: "\"production\": [{\"flags\": {\"pageSize\": 50}}]", with: "\"production\": {}"),
            error: "6:34: error: environment 'production' must be a non-empty list of its documents"),
        Case(
            name: "a document that is not an object",
            text: good.replacingOccurrences(of: "[{\"flags\": {\"pageSize\": 50}}]", with: "[{\"flags\": {}}, 7]"),
            error: "6:50: error: a document of environment 'production' must be an object, found an int"),
        Case(
            name: "a definition's value of the wrong type",
            text: good.replacingOccurrences(of: "\"default\": 20", with: "\"default\": \"twenty\""),
            error: "4:82: error: 'pageSize' default \"twenty\" is not an int"),
        Case(
            name: "an environment value out of range",
            text: good.replacingOccurrences(of: "\"pageSize\": 50", with: "\"pageSize\": 500"),
            error: "6:58: error: "),
        Case(
            name: "a truncated bundle", text: String(good.dropLast(3)),
            error: "6:63: error: unexpected end of text; expected ',' or '}'"),
        Case(
            name: "a duplicate key",
            text: good.replacingOccurrences(
                of: "\"ensignBundle\": 1,", with: "\"ensignBundle\": 1, \"ensignBundle\": 1,"),
            error: "2:22: error: duplicate key 'ensignBundle'"),
    ]

    @Test("A broken bundle is an error at its line and column, and loads nothing", arguments: cases)
    func brokenBundle(_ broken: Case) throws {
        let scratch = try TemporaryDirectory()
        let path = try scratch.write("Flags.bundle.json", broken.text)
        let loaded = DefinitionLoader().loadBundle(path, environment: "production")
        let errors = loaded.diagnostics.filter(\.isError).map(\.description)
        #expect(errors.contains { $0.hasPrefix(path + ":" + broken.error) }, "\(errors)")
        #expect(throws: AppContextLoadError.self) { try unwatchedContext(path, environment: "production") }
    }

    @Test("The well-formed bundle these cases break loads, so each case fails for its own reason")
    func goodBundleLoads() throws {
        let scratch = try TemporaryDirectory()
        let path = try scratch.write("Flags.bundle.json", Self.good)
        let context = try unwatchedContext(path, environment: "production")
        #expect(context.details(forKeyNamed: "pageSize").value == 50)
        #expect(context.details(forKeyNamed: "pageSize").source.location?.description == "\(path):6:58")
    }

    @Test("validate takes a bundle: its definitions and every overlay, with the bundle's positions")
    func validateReadsBundle() throws {
        let scratch = try TemporaryDirectory()
        let good = try scratch.write("good.json", Self.good)
        let report = ConfigValidator().validate(paths: [good])
        #expect(report.diagnostics.isEmpty, "\(report.diagnostics)")
        #expect(report.definitions.keys == ["pageSize"])
        #expect(report.environments.keys.sorted() == ["production"])
        let bad = try scratch.write(
            "bad.json", Self.good.replacingOccurrences(of: "\"pageSize\": 50", with: "\"pageSize\": \"many\""))
        let badReport = ConfigValidator().validate(paths: [bad])
        #expect(badReport.diagnostics.contains { $0.isError && $0.description.hasPrefix(bad + ":6:58: error:") })
    }
}

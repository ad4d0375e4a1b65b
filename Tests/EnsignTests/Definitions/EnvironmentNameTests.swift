import EnsignTestSupport
import Foundation
import Testing

@testable import Ensign

@Suite("Environment names: the files say which environments exist")
struct EnvironmentNameTests {
    /// The load error for `environment`, printed.
    func loadError(_ environment: String, in flags: ThreeEnvironments) -> String? {
        do {
            _ = try flags.context(environment)
            return nil
        } catch {
            return "\(error)"
        }
    }

    @Test("A case variant of a known environment is an error with a suggestion and the known names")
    func caseVariant() throws {
        let flags = try ThreeEnvironments()
        let error = try #require(loadError("Production", in: flags))
        #expect(
            error.contains(
                "\(flags.path): error: environment 'Production' is not mentioned by any file (no"
                    + " environments/Production.yaml, no inline 'environments:' value); the known environments are"
                    + " development, production and staging; did you mean 'production'?"))
    }

    @Test("A shortened name suggests the environment it starts", arguments: ["prod", "dev", "stag"])
    func prefix(_ name: String) throws {
        let flags = try ThreeEnvironments()
        let error = try #require(loadError(name, in: flags))
        let expected = ["prod": "production", "dev": "development", "stag": "staging"][name]!
        #expect(error.contains("environment '\(name)' is not mentioned by any file"))
        #expect(error.contains("; did you mean '\(expected)'?"))
    }

    @Test("An inline environments: value makes its environment known")
    func inlineValue() throws {
        let directory = try TemporaryDirectory()
        try directory.write("app.yaml", "flags:\n  a: { default: 1, environments: { qa: 2 } }\n")
        try directory.write("environments/production.yaml", "flags: {}\n")
        #expect(try unwatchedContext(directory.path, environment: "qa").value(forKeyNamed: "a") == 2)
        #expect {
            try unwatchedContext(directory.path, environment: "uat")
        } throws: { error in
            "\(error)".contains("the known environments are production and qa")
        }
    }

    @Test("Files that mention no environment accept any name: nothing depends on it")
    func noEnvironmentMentioned() throws {
        let directory = try TemporaryDirectory()
        try directory.write("app.yaml", "flags:\n  a: { default: 1 }\n")
        #expect(try unwatchedContext(directory.path, environment: "anything").value(forKeyNamed: "a") == 1)
    }

    @Test("A context from strings: 'test' is always accepted, other names must be mentioned")
    func inMemory() throws {
        let definitions = "flags:\n  a: { default: 1, environments: { development: 2 } }\n"
        #expect(try AppContext(definitions: definitions).value(forKeyNamed: "a") == 1)
        #expect(try AppContext(definitions: definitions, environment: "development").value(forKeyNamed: "a") == 2)
        #expect {
            try AppContext(definitions: definitions, environment: "Development")
        } throws: { error in
            "\(error)".contains(
                "environment 'Development' is not mentioned by any file (no environmentOverlay, no inline"
                    + " 'environments:' value); the known environments are development and test; did you mean"
                    + " 'development'?")
        }
        // The overlay passed for the environment mentions it.
        let staged = try AppContext(
            definitions: definitions, environment: "staging", environmentOverlay: "flags:\n  a: 3\n")
        #expect(staged.value(forKeyNamed: "a") == 3)
        #expect(AppContext(values: ["a": 1], environment: "anything").value(forKeyNamed: "a") == 1)
    }

    @Test("Without ENSIGN_ENV an app's environment is production, the fail-safe default")
    func failSafeDefault() {
        #expect(AppContextConfiguration.environment(fromVariable: nil) == "production")
        #expect(AppContextConfiguration.environment(fromVariable: "") == "production")
        #expect(AppContextConfiguration.environment(fromVariable: "staging") == "staging")
    }
}

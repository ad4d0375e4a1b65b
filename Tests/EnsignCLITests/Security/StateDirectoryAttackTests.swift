#if os(Linux)
    import Ensign
    import EnsignTestSupport
    import Foundation
    import Testing

    extension SecurityTests {
        /// `ensign demo --state DIR` and an `AppContext` whose preferences and overrides files
        /// are in DIR, where another user prepared DIR.
        @Suite("State directories another user prepared")
        struct StateDirectoryAttacks {
            /// What the attacker leaves in a state directory: an overrides file with an invalid
            /// value (loading it would set it aside and write the file again), the preferences
            /// file as a link to root's file, and links to it under the lock names and names
            /// like the temporary files'.
            static func preparedState(at directory: String, mode: mode_t, pointingAt victim: String)
                -> [Attacker.Step]
            {
                [
                    .directory(directory, mode: mode),
                    .file(directory + "/overrides.yaml", mode: 0o666, text: AttackScene.foreignState),
                    .link(directory + "/preferences.yaml", to: victim),
                    .link(directory + "/overrides.yaml.lock", to: victim),
                    .link(directory + "/preferences.yaml.lock", to: victim),
                    .link(directory + "/overrides.yaml.tmp", to: victim),
                    .link(directory + "/preferences.yaml.tmp-1", to: victim),
                ]
            }

            @Test(
                "A state directory another user created, open to all (0777) or private to them (0700), is refused before anything in it is read, set aside or written",
                arguments: [0o777, 0o700] as [mode_t])
            func foreignDirectoryRefused(mode: mode_t) throws {
                let scene = try AttackScene()
                let state = scene.shared + "/state"
                try scene.attacker.plant(Self.preparedState(at: state, mode: mode, pointingAt: scene.victimFile))
                let result = try scene.expectUntouched { try scene.demo(["--state", state]) }
                result.expectRefusal(
                    saying:
                        "refusing to keep state in \(state): it belongs to uid \(scene.user.uid), not to this user (uid 0)"
                )
            }

            @Test(
                "An AppContext whose preferences and overrides files are in another user's directory refuses to start")
            func contextRefuses() throws {
                let scene = try AttackScene()
                let state = scene.shared + "/state"
                try scene.attacker.plant(Self.preparedState(at: state, mode: 0o777, pointingAt: scene.victimFile))
                var configuration = AppContextConfiguration(
                    definitionsDirectory: BuiltExecutable.packageRoot.path + "/flags", environment: "development",
                    preferencesFile: state + "/preferences.yaml", overridesFile: state + "/overrides.yaml")
                configuration.watchesFiles = false
                let refusal = try scene.expectUntouched {
                    #expect(throws: AppContextLoadError.self) { try AppContext(configuration: configuration) }
                }
                let messages = refusal?.diagnostics.map(\.message) ?? []
                #expect(messages.count == 2, "one refusal per file: \(messages)")
                #expect(
                    messages.allSatisfy {
                        $0.contains("refusing to keep state in \(state): it belongs to uid \(scene.user.uid)")
                    },
                    "\(messages)")
            }

            @Test(
                "A state directory that is another user's link to a private directory of root's is refused, even named with trailing slashes",
                arguments: ["", "/", "//"])
            func linkedDirectoryRefused(suffix: String) throws {
                let scene = try AttackScene()
                // In the shared directory, so that only the check of the link itself stands in the way.
                let link = scene.shared + "/state"
                try scene.attacker.plant([.link(link, to: scene.victimState)])
                let result = try scene.expectUntouched { try scene.demo(["--state", link + suffix]) }
                result.expectRefusal(saying: "refusing to keep state in \(link): it is a symbolic link")
            }
        }
    }
#endif

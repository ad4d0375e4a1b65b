#if os(Linux)
    import Ensign
    import EnsignControl
    import EnsignTestSupport
    import Foundation
    import Testing

    extension SecurityTests {
        /// The runtime directory (`ENSIGN_RUNTIME_DIR`, standing in for `/tmp/ensign-<uid>`)
        /// prepared by another user: the server must not put its socket there, and clients
        /// must not talk to a socket found there.
        @Suite("Runtime directories another user prepared")
        struct RuntimeDirectoryAttacks {
            @Test(
                "A runtime directory another user created, open to all (0777) or private to them (0700), gets no control socket",
                arguments: [0o777, 0o700] as [mode_t])
            func serverRefusesForeignDirectory(mode: mode_t) throws {
                let scene = try AttackScene()
                let runtime = try scene.plantRuntimeDirectory(mode: mode)
                let result = try scene.expectUntouched {
                    try scene.demo([], environment: ["ENSIGN_RUNTIME_DIR": runtime])
                }
                result.expectRefusal(
                    saying:
                        "the runtime directory \(runtime) cannot be used: it belongs to uid \(scene.user.uid), not to you (uid 0)"
                )
                let refusal = try scene.expectUntouched {
                    #expect(throws: ControlServerError.self) {
                        try ControlServer.start(
                            context: AppContext(values: ["app.enabled": false]),
                            options: ControlServerOptions(appName: "app", runtimeDirectory: runtime))
                    }
                }
                #expect(refusal?.description.contains("belongs to uid \(scene.user.uid)") == true)
            }

            @Test(
                "A runtime directory that is another user's link to their own directory gets no socket, even named with trailing slashes",
                arguments: ["", "/", "//"])
            func serverRefusesLink(suffix: String) throws {
                let scene = try AttackScene()
                let link = try scene.plantRuntimeDirectoryLink()
                let result = try scene.expectUntouched {
                    try scene.demo([], environment: ["ENSIGN_RUNTIME_DIR": link + suffix])
                }
                result.expectRefusal(saying: "the runtime directory \(link) cannot be used: it is a symbolic link")
            }

            @Test("A runtime directory reached through another user's link is not created where the link points")
            func serverRefusesLinkOnTheWay() throws {
                let scene = try AttackScene()
                // One link in the attacker's home, one of theirs in the shared directory; both lead into root's victim.
                try scene.attacker.plant([
                    .link(scene.home + "/up", to: scene.victim), .link(scene.shared + "/up", to: scene.victim),
                ])
                let cases = [
                    (scene.home + "/up/run", "\(scene.home) belongs to uid \(scene.user.uid)"),
                    (scene.shared + "/up/run", "\(scene.shared)/up is a symbolic link of uid \(scene.user.uid)'s"),
                ]
                for (runtime, reason) in cases {
                    let result = try scene.expectUntouched {
                        try scene.demo([], environment: ["ENSIGN_RUNTIME_DIR": runtime])
                    }
                    result.expectRefusal(saying: "the runtime directory \(runtime) cannot be used: \(reason)")
                }
            }

            @Test(
                "ensign list and ps refuse a runtime directory another user created (0777 or 0700) and never connect to the app socket they planted in it",
                arguments: [0o777, 0o700] as [mode_t])
            func clientRefusesForeignDirectory(mode: mode_t) throws {
                let scene = try AttackScene()
                let runtime = try scene.plantRuntimeDirectory(mode: mode)
                let lure = try scene.listen(at: runtime + "/demo.4242.sock")
                for command in [["list"], ["ps"], ["set", "beneficiaries.pageSize", "50"]] {
                    let result = try scene.expectUntouched {
                        try scene.ensign(command, environment: ["ENSIGN_RUNTIME_DIR": runtime])
                    }
                    result.expectRefusal(
                        saying: "the runtime directory \(runtime) cannot be used: it belongs to uid \(scene.user.uid)",
                        label: "\(command): ")
                }
                #expect(try lure.connectionsMade() == [], "the client connected to the planted socket")
            }

            @Test(
                "ensign list refuses a runtime directory that is another user's link, even named with a trailing slash, and never connects to the socket behind it"
            )
            func clientRefusesLink() throws {
                let scene = try AttackScene()
                let link = try scene.plantRuntimeDirectoryLink()
                let lure = try scene.listen(at: scene.home + "/run/demo.4242.sock")
                for runtime in [link, link + "/"] {
                    let result = try scene.expectUntouched {
                        try scene.ensign(["list"], environment: ["ENSIGN_RUNTIME_DIR": runtime])
                    }
                    result.expectRefusal(saying: "the runtime directory \(link) cannot be used: it is a symbolic link")
                }
                #expect(try lure.connectionsMade() == [], "the client connected to the planted socket")
            }
        }
    }
#endif

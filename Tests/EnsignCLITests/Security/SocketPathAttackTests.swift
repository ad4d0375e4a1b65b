#if os(Linux)
    import EnsignTestSupport
    import Foundation
    import Testing

    extension SecurityTests {
        /// `--socket PATH` in a directory another user can write to, or reached through their links.
        @Suite("Socket paths in another user's reach")
        struct SocketPathAttacks {
            @Test(
                "ensign demo --socket refuses a directory another user can write to: the shared one, theirs open to all, their home"
            )
            func serverRefusesWritableDirectory() throws {
                let scene = try AttackScene()
                try scene.attacker.plant([.directory(scene.shared + "/open", mode: 0o777)])
                let cases = [
                    (scene.shared, "other users can write to it (mode 777)"),
                    (scene.shared + "/open", "it belongs to uid \(scene.user.uid), not to uid 0 or root"),
                    (scene.home, "it belongs to uid \(scene.user.uid), not to uid 0 or root"),
                ]
                for (directory, reason) in cases {
                    let result = try scene.expectUntouched { try scene.demo(["--socket", directory + "/demo.sock"]) }
                    result.expectRefusal(saying: "the runtime directory \(directory) cannot be used: \(reason)")
                }
            }

            @Test("ensign demo --socket through another user's link does not create the socket where the link points")
            func serverRefusesLinkOnTheWay() throws {
                let scene = try AttackScene()
                // home/up/victim is root's private victim directory, reached through the attacker's link.
                try scene.attacker.plant([.link(scene.home + "/up", to: scene.workspace)])
                let socket = scene.home + "/up/victim/demo.sock"
                let result = try scene.expectUntouched { try scene.demo(["--socket", socket]) }
                result.expectRefusal(
                    saying:
                        "the runtime directory \(scene.home)/up/victim cannot be used: \(scene.home) belongs to uid \(scene.user.uid)"
                )
            }

            @Test(
                "A live command refuses a --socket another user listens on in a directory others can write to, and never connects"
            )
            func clientRefusesPlantedSocket() throws {
                let scene = try AttackScene()
                try scene.attacker.plant([.directory(scene.shared + "/open", mode: 0o777)])
                for directory in [scene.shared, scene.shared + "/open"] {
                    let socket = directory + "/demo.4242.sock"
                    let lure = try scene.listen(at: socket)
                    for command in [["list"], ["set", "beneficiaries.pageSize", "50", "--persist"]] {
                        let result = try scene.expectUntouched { try scene.ensign(command + ["--socket", socket]) }
                        result.expectRefusal(
                            saying:
                                "refusing to talk to \(socket): the runtime directory \(directory) cannot be used: other users can write to it",
                            label: "\(command): ")
                    }
                    #expect(
                        try lure.connectionsMade() == [], "the client connected to the planted socket in \(directory)")
                }
            }
        }
    }
#endif

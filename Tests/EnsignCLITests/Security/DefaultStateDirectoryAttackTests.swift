#if os(Linux)
    import EnsignTestSupport
    import Foundation
    import Testing

    extension SecurityTests {
        /// `ensign demo` without `--state`: the state directory is `$XDG_STATE_HOME/ensign/demo`,
        /// else `$HOME/.local/state/ensign/demo`, and `sudo` may well keep a user's HOME.
        @Suite("The default state directory inside another user's tree")
        struct DefaultStateDirectoryAttacks {
            @Test(
                "With HOME in another user's home, the state directory they prepared there is refused before anything in it is read or written"
            )
            func preparedInHomeRefused() throws {
                let scene = try AttackScene()
                let state = scene.home + "/.local/state/ensign/demo"
                try scene.attacker.plant(
                    [
                        .directory(scene.home + "/.local", mode: 0o755),
                        .directory(scene.home + "/.local/state", mode: 0o755),
                        .directory(scene.home + "/.local/state/ensign", mode: 0o755),
                    ]
                        + StateDirectoryAttacks.preparedState(at: state, mode: 0o777, pointingAt: scene.victimFile))
                let result = try scene.expectUntouched {
                    try scene.demo([], environment: ["HOME": scene.home, "XDG_STATE_HOME": ""])
                }
                result.expectRefusal(saying: "refusing to keep state in \(state): it belongs to uid \(scene.user.uid)")
            }

            @Test(
                "A link another user put on the way to the default state directory is not followed into root's directory"
            )
            func linkOnTheWayNotFollowed() throws {
                let scene = try AttackScene()
                // $XDG_STATE_HOME/ensign/demo leads, through the link, to root's victim/demo.
                let stateHome = scene.home + "/xdg"
                try scene.attacker.plant([
                    .directory(stateHome, mode: 0o755), .link(stateHome + "/ensign", to: scene.victim),
                ])
                let result = try scene.expectUntouched {
                    try scene.demo([], environment: ["XDG_STATE_HOME": stateHome])
                }
                result.expectRefusal(
                    saying:
                        "refusing to keep state in \(stateHome)/ensign/demo: \(scene.home) belongs to uid \(scene.user.uid)"
                )
            }

            @Test(
                "With HOME in another user's home and nothing prepared there yet, the demo refuses to start instead of creating its state there"
            )
            func nothingPreparedRefused() throws {
                let scene = try AttackScene()
                let result = try scene.expectUntouched {
                    try scene.demo([], environment: ["HOME": scene.home, "XDG_STATE_HOME": ""])
                }
                result.expectRefusal(
                    saying:
                        "refusing to keep state in \(scene.home)/.local/state/ensign/demo: \(scene.home) belongs to uid \(scene.user.uid)"
                )
            }
        }
    }
#endif

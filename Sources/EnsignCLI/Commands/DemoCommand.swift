import Ensign
import EnsignControl
import EnsignFleet
import EnsignSupport

/// `ensign demo`: the sample banking app, with a control server to drive it from another terminal.
enum DemoCommand {
    static let specification = CommandSpecification(
        name: "demo", summary: "Run the sample banking app: modules re-render only when their keys change.",
        discussion: """
            Builds one AppContext from the definitions directory, injects scoped contexts into
            three modules (beneficiaries, transfers, settings) and prints a module again when,
            and only when, one of its keys changes, with the cause from the change log. It
            starts a control server, so another terminal can drive it:

              ensign menu                                  the interactive debug menu
              ensign toggle beneficiaries.showPendingList
              ensign set appearance.darkMode true
              ensign explain beneficiaries.pageSize

            Editing a file under --flags reloads it live. Ctrl-C stops the demo.
            """,
        options: [
            .value("flags", "DIR", "the definitions directory (default: flags)"),
            .value(
                "env", "E",
                "the environment, one the flags mention (default: $ENSIGN_ENV, else development)"),
            .value("socket", "PATH", "the control socket (default: <runtime dir>/demo.<pid>.sock)"),
            .value(
                "state", "DIR",
                "where preferences and persisted overrides are saved; a directory of your own that no other user"
                    + " can write to (default: $XDG_STATE_HOME/ensign/demo, else ~/.local/state/ensign/demo)"),
            .value(
                "etcd", "URL[,URL…]",
                "join a fleet: etcd endpoints (comma-separated); values under the prefix form the fleet layer, so"
                    + " `ensign fleet set` reaches every demo started with the same prefix"),
            .value("etcd-prefix", "P", "the fleet's key prefix (default: /ensign/demo/)"),
        ],
        sharedOptions: [EtcdTLSOptions.group],
        run: run)

    static func run(_ arguments: ParsedArguments, console: inout Console) throws -> Int32 {
        guard let state = arguments.option("state") ?? AppContextConfiguration.defaultStateDirectory(forApp: "demo")
        else {
            throw UsageError("no state directory: set XDG_STATE_HOME or HOME, or pass --state DIR")
        }
        var configuration = AppContextConfiguration(
            definitionsDirectory: arguments.option("flags") ?? "flags",
            environment: arguments.option("env") ?? defaultEnvironment(),
            preferencesFile: state + "/preferences.yaml", overridesFile: state + "/overrides.yaml", label: "demo")
        configuration.watchDebounce = .milliseconds(100)
        guard let context = ContextOpening.open(configuration, console: &console) else { return ExitStatus.failure }
        // The signed-in user the targeting rules see.
        context.setEvaluationContext(
            EvaluationContext(
                targetingKey: "dominique", attributes: ["country": "FR", "email": "dominique@example.com"]))
        // So that `ensign stats` has something to show: what the modules read, and how often.
        context.countEvaluations()
        let fleet = try FleetOptions.join(arguments, context: context, defaultPrefix: "/ensign/demo/")
        let server = try ControlServer.start(
            context: context, options: ControlServerOptions(appName: "demo", socketPath: arguments.option("socket")))
        let screen = DemoScreen(usesColor: console.usesColor)
        let app = DemoApp(context: context, screen: screen)
        printBanner(context: context, socket: server.socketPath, console: &console)
        console.flush()
        app.renderAll()
        Interruption.waitForTermination()
        fleet?.stop()
        server.stop()
        try? context.flush()
        screen.say("demo stopped")
        return ExitStatus.success
    }

    /// `$ENSIGN_ENV`, else `development`: the demo is a development tool, unlike an app, whose
    /// fail-safe default is `production`. Either must be an environment the flags mention.
    static func defaultEnvironment() -> String {
        guard let value = ProcessEnvironment.value("ENSIGN_ENV"), !value.isEmpty else {
            return "development"
        }
        return value
    }

    static func printBanner(context: AppContext, socket: String, console: inout Console) {
        let keys = context.definitions.count
        console.print(console.styled("Ensign demo", .bold) + " — environment \(context.environment), \(keys) keys")
        console.print("control socket: \(socket)")
        console.print("From another terminal:  ensign menu   ·   ensign toggle beneficiaries.showPendingList")
        console.print(
            "                        ensign set appearance.darkMode true   ·   ensign explain beneficiaries.pageSize")
        console.print("Edit the YAML under the flags directory to see a live reload. Ctrl-C stops the demo.\n")
    }
}

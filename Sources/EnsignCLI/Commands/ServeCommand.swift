import Ensign
import EnsignControl
import EnsignFleet
import EnsignOFREP
import EnsignServe
import Foundation

/// `ensign serve`: an AppContext behind OFREP, for OpenFeature clients in any language.
enum ServeCommand {
    static let specification = CommandSpecification(
        name: "serve", summary: "Serve flags over OFREP (HTTP) to OpenFeature clients in any language.",
        discussion: """
            Builds one AppContext from --flags (a definitions directory, a bundle, or a single
            definitions file such as a flagd JSON file) and answers the OpenFeature Remote
            Evaluation Protocol: POST /ofrep/v1/evaluate/flags/KEY (one flag), POST
            /ofrep/v1/evaluate/flags (every flag, with an ETag; If-None-Match gives 304),
            GET /ofrep/v1/configuration, and GET /ofrep/v1/events, a server-sent-events stream
            that announces every live change to bulk clients. Each request is evaluated for its
            own evaluation context, over every layer of the server's context: environment,
            deployment files, the fleet layer (--etcd), and live overrides — the server starts
            a control server, so `ensign set`, `ensign toggle` and `ensign menu` work on it.

            It speaks plain HTTP, on loopback by default: to serve other machines, put a
            TLS-terminating proxy in front. With ENSIGN_SERVE_TOKEN set, or --token-file, every
            request needs 'Authorization: Bearer TOKEN' or 'X-API-Key: TOKEN' (never pass a
            token on the command line: other users can read it). Ctrl-C or SIGTERM stops it.
            """,
        options: [
            .value("flags", "DIR|FILE", "the definitions directory, bundle or file", required: true),
            .value(
                "env", "E", "the environment, one the flags mention (default: $ENSIGN_ENV, else production)"),
            .value("deploy", "FILE", "a deployment overlay file, applied after the environment", repeatable: true),
            .value(
                "etcd", "URL[,URL…]", "join a fleet: etcd endpoints whose values under the prefix form the fleet layer"),
            .value("etcd-prefix", "P", "the fleet's key prefix (default: /ensign/serve/)"),
            .value("listen", "HOST:PORT", "where to listen (default: 127.0.0.1:8016; port 0 picks a free one)"),
            .value("token-file", "PATH", "require the token in this file (else $ENSIGN_SERVE_TOKEN, if set)"),
            .value("socket", "PATH", "the control socket (default: <runtime dir>/serve.<pid>.sock)"),
            .flag(
                "allow-production-writes",
                "let `ensign set` and the other live commands write in the production environment (refused by default)"),
        ],
        epilogue: """
            exit status: 0 after a clean stop, 1 when the flags do not load or the address
            cannot be bound.

            example:
              ensign serve --flags flags/ --env staging --listen 127.0.0.1:8016
              curl -s -X POST localhost:8016/ofrep/v1/evaluate/flags/beneficiaries.pageSize -d '{"context":{}}'
            """,
        run: run)

    static func run(_ arguments: ParsedArguments, console: inout Console) throws -> Int32 {
        guard let flags = arguments.option("flags") else {
            throw UsageError("give the definitions with --flags DIR|FILE")
        }
        let listen: ListenAddress
        do {
            listen =
                try arguments.option("listen").map { text throws(ListenAddress.Invalid) in
                    try ListenAddress(parsing: text)
                } ?? .defaultAddress
        } catch {
            throw UsageError("--listen: \(error)")
        }
        let credentials = try readCredentials(arguments)
        // Blocked before any thread starts, so every thread inherits the mask and the signals
        // reach the sigwait below instead of killing the process.
        Interruption.blockTerminationSignals()
        let definitions = try ServedDefinitions(path: flags)
        defer { definitions.remove() }
        var configuration = AppContextConfiguration(
            definitionsDirectory: definitions.directory, environment: arguments.option("env"),
            deploymentFiles: arguments.options("deploy"), label: "serve")
        configuration.watchDebounce = .milliseconds(50)
        if definitions.isLinkedFile { configuration.pollInterval = .seconds(1) }
        guard let context = ContextOpening.open(configuration, console: &console) else { return ExitStatus.failure }
        let fleet = try arguments.option("etcd").map { urls in
            try EtcdFleetSource.start(
                context: context, endpoints: EtcdConfiguration.endpoints(fromList: urls),
                prefix: arguments.option("etcd-prefix") ?? "/ensign/serve/")
        }
        let control = try ControlServer.start(
            context: context,
            options: ControlServerOptions(
                appName: "serve", allowsWritesInProduction: arguments.flag("allow-production-writes"),
                socketPath: arguments.option("socket")))
        var serviceOptions = OFREPServiceOptions()
        serviceOptions.credentials = credentials
        serviceOptions.eventStreamPath = OFREPServiceOptions.defaultEventStreamPath
        var serverOptions = OFREPServerOptions()
        serverOptions.listenAddress = listen
        let server: OFREPServer
        do {
            server = try OFREPServer.start(
                service: OFREPService(context: context, options: serviceOptions), options: serverOptions)
        } catch {
            console.printError("ensign serve: \(error)")
            fleet?.stop()
            control.stop()
            return ExitStatus.failure
        }
        printBanner(
            server: server, context: context, socket: control.socketPath, hasToken: credentials != nil,
            console: &console)
        console.flush()
        Interruption.waitForTermination()
        server.stop()
        fleet?.stop()
        control.stop()
        console.print("ensign serve: stopped")
        return ExitStatus.success
    }

    /// The token from `--token-file`, else `$ENSIGN_SERVE_TOKEN`; `nil` when neither is given.
    static func readCredentials(_ arguments: ParsedArguments) throws -> OFREPCredentials? {
        let token: String
        if let path = arguments.option("token-file") {
            guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
                throw UsageError("--token-file: cannot read '\(path)'")
            }
            token = text
        } else if let text = ProcessEnvironment.value("ENSIGN_SERVE_TOKEN") {
            token = text
        } else {
            return nil
        }
        do {
            return try OFREPCredentials(token: token)
        } catch {
            throw UsageError("the serve token: \(error)")
        }
    }

    static func printBanner(
        server: OFREPServer, context: AppContext, socket: String, hasToken: Bool, console: inout Console
    ) {
        let flags = context.definitions.count
        console.print(
            "ensign serve: OFREP on http://\(server.address)/ofrep/v1 — environment \(context.environment), \(flags) keys"
                + (hasToken ? ", token required" : ""))
        console.print("control socket: \(socket)")
        if !server.address.isLoopback {
            console.printError(
                "warning: plain HTTP on \(server.address), which other machines can reach: put a TLS-terminating"
                    + " proxy in front, and set a token")
        }
    }
}

import Ensign
import EnsignControl
import EnsignFleet
import EnsignOFREP
import EnsignServe
import EnsignSupport
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

            It listens on loopback by default and speaks plain HTTP, or HTTPS with a certificate
            and its key. With ENSIGN_SERVE_TOKEN set, or --token-file, every OFREP request needs
            'Authorization: Bearer TOKEN' or 'X-API-Key: TOKEN' (never pass a token on the
            command line: other users can read it). GET /healthz, /readyz and /metrics (the
            Prometheus text format) are served beside OFREP, or on --management-listen.

            It holds a fleet with no option given: it raises the descriptor limit to the hard
            limit and sizes itself from it, and the start-up line says what it holds. Ctrl-C or
            SIGTERM drains it: it stops accepting, tells event streams to reconnect later, lets
            requests in flight finish (up to 10 s), and exits 0.
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
            .value(
                "management-listen", "HOST:PORT",
                "serve /healthz, /readyz and /metrics here instead of beside OFREP (plain HTTP, no token)"),
            .value("tls-cert", "FILE", "speak HTTPS with this PEM certificate chain (the server's certificate first)"),
            .value("tls-key", "FILE", "the certificate's PEM private key (unencrypted; keep it readable by you alone)"),
            .value(
                "connection-limit", "N",
                "the most connections at once (default: from the descriptor limit, at most 65536)"),
            .value(
                "worker-threads", "N",
                "threads serving connections, each with its share (default: one per processor, 2 to 8)"),
            .value(
                "event-stream-limit", "N",
                "the most event streams at once (default: three quarters of the connection limit, at most 50000)"),
            .value("socket", "PATH", "the control socket (default: <runtime dir>/serve.<pid>.sock)"),
            .value(
                "config", "FILE",
                "read context enrichment from FILE (YAML or JSON: context-value and context-from-header, as flagd names them)"
            ),
            .value(
                "context-value", "KEY=VALUE",
                "add KEY (a string) to every evaluation's context, over the request's own (flagd's -X)",
                repeatable: true),
            .value(
                "context-from-header", "HEADER=KEY",
                "copy request header HEADER into the context as KEY, over the other values (flagd's -H; HEADER:KEY too)",
                repeatable: true),
            .flag(
                "null-variant",
                "write \"variant\": null for a flag without one instead of leaving it out (for OpenFeature's"
                    + " Python OFREP provider 0.3.0, which reads it unconditionally)"),
            .flag(
                "allow-production-writes",
                "let `ensign set` and the other live commands write in the production environment (refused by default)"),
        ],
        sharedOptions: [EtcdTLSOptions.group],
        epilogue: """
            exit status: 0 after a clean stop, 1 when the flags or the --config file do not
            load, the address cannot be bound, or the TLS library refuses the certificate and key.

            example:
              ensign serve --flags flags/ --env staging --listen 127.0.0.1:8016
              curl -s -X POST localhost:8016/ofrep/v1/evaluate/flags/beneficiaries.pageSize -d '{"context":{}}'
            """,
        run: run)

    /// `--config FILE`'s context enrichment, then `--context-value KEY=VALUE` and
    /// `--context-from-header HEADER=KEY` (or `HEADER:KEY`, flagd's spelling) over it, checked:
    /// a pair each, a key, and a header name HTTP allows.
    static func contextEnrichment(_ arguments: ParsedArguments, file: ServeConfigurationFile) throws(UsageError) -> (
        [String: JSONValue], [String: String]
    ) {
        var values = file.contextValues.mapValues(JSONValue.string)
        for pair in arguments.options("context-value") {
            guard let equals = pair.firstIndex(of: "="), equals != pair.startIndex else {
                throw UsageError("--context-value takes KEY=VALUE, not '\(pair)'")
            }
            values[String(pair[..<equals])] = .string(String(pair[pair.index(after: equals)...]))
        }
        var headers = file.contextFromHeaders
        for pair in arguments.options("context-from-header") {
            guard let separator = pair.firstIndex(where: { $0 == "=" || $0 == ":" }) else {
                throw UsageError("--context-from-header takes HEADER=KEY, not '\(pair)'")
            }
            let header = pair[..<separator]
            let key = pair[pair.index(after: separator)...]
            guard !key.isEmpty, ServeConfigurationFile.isHeaderName(header) else {
                throw UsageError("--context-from-header takes HEADER=KEY with a header name HTTP allows, not '\(pair)'")
            }
            headers[header.lowercased()] = String(key)
        }
        return (values, headers)
    }

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
        var configurationFile = ServeConfigurationFile()
        if let path = arguments.option("config") {
            do {
                configurationFile = try ServeConfigurationFile(contentsOf: path)
            } catch {
                console.printError("error: \(error)")
                return ExitStatus.failure
            }
        }
        let enrichment = try contextEnrichment(arguments, file: configurationFile)
        var serverOptions = OFREPServerOptions()
        serverOptions.listenAddress = listen
        serverOptions.managementAddress = try arguments.option("management-listen").map { text in
            do {
                return try ListenAddress(parsing: text)
            } catch {
                throw UsageError("--management-listen: \(error)")
            }
        }
        serverOptions.tls = try readTLS(arguments)
        serverOptions.connectionLimit = try positiveInteger(arguments, "connection-limit")
        serverOptions.eventStreamLimit = try positiveInteger(arguments, "event-stream-limit")
        if let threads = try positiveInteger(arguments, "worker-threads") { serverOptions.workerThreads = threads }
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
        let fleet = try FleetOptions.join(arguments, context: context, defaultPrefix: "/ensign/serve/")
        var controlOptions = ControlServerOptions(
            appName: "serve", allowsWritesInProduction: arguments.flag("allow-production-writes"),
            socketPath: arguments.option("socket"))
        let servedServer = LockedServer()
        controlOptions.statusDetails = { servedServer.statusDetails }
        let control = try ControlServer.start(context: context, options: controlOptions)
        var serviceOptions = OFREPServiceOptions()
        serviceOptions.credentials = credentials
        serviceOptions.eventStreamPath = OFREPServiceOptions.defaultEventStreamPath
        serviceOptions.writesNullVariant = arguments.flag("null-variant")
        (serviceOptions.staticContext, serviceOptions.contextFromHeaders) = enrichment
        let server: OFREPServer
        do {
            server = try OFREPServer.start(
                service: OFREPService(context: context, options: serviceOptions), options: serverOptions)
        } catch {
            console.printError("ensign serve: " + (error.isTLSRefusal ? "--tls-cert/--tls-key: " : "") + "\(error)")
            fleet?.stop()
            control.stop()
            return ExitStatus.failure
        }
        servedServer.set(server)
        printBanner(
            server: server, context: context, socket: control.socketPath, hasToken: credentials != nil,
            console: &console)
        console.flush()
        Interruption.waitForTermination()
        console.print("ensign serve: draining: no new connections; event streams told to reconnect later")
        console.flush()
        let finished = server.drain(timeout: .seconds(10))
        fleet?.stop()
        control.stop()
        console.print(
            finished ? "ensign serve: stopped" : "ensign serve: stopped; requests still open after 10 s were closed")
        return ExitStatus.success
    }

    /// `--tls-cert` and `--tls-key`, read and checked; `nil` when neither is given.
    static func readTLS(_ arguments: ParsedArguments) throws -> ServerTLS? {
        let certificatePath = arguments.option("tls-cert")
        let keyPath = arguments.option("tls-key")
        guard certificatePath != nil || keyPath != nil else { return nil }
        guard let certificatePath, let keyPath else {
            throw UsageError("give both --tls-cert FILE and --tls-key FILE, or neither")
        }
        let certificate = try readPEMFile(certificatePath, option: "tls-cert", converter: "x509")
        let key = try readPEMFile(keyPath, option: "tls-key", converter: "pkey")
        do {
            return try ServerTLS(certificateChainPEM: certificate, privateKeyPEM: key)
        } catch {
            throw UsageError("--tls-cert/--tls-key: \(error)")
        }
    }

    /// The text of the PEM file given to `--option`; a usage error saying why when it is
    /// missing, unreadable or binary (DER, which `openssl converter` turns into PEM).
    static func readPEMFile(_ path: String, option: String, converter: String) throws -> String {
        guard let bytes = FileManager.default.contents(atPath: path) else {
            let reason = access(path, R_OK) == 0 ? "not a regular file" : String(cString: strerror(errno))
            throw UsageError("--\(option): cannot read '\(path)': \(reason)")
        }
        guard let text = String(bytes: bytes, encoding: .utf8) else {
            throw UsageError(
                "--\(option): '\(path)' is binary, not PEM text; if it is DER, convert it with"
                    + " openssl \(converter) -inform DER -in '\(path)' -out FILE.pem")
        }
        return text
    }

    /// A positive whole number option; `nil` when not given.
    static func positiveInteger(_ arguments: ParsedArguments, _ name: String) throws -> Int? {
        guard let text = arguments.option(name) else { return nil }
        guard let number = Int(text), number > 0 else {
            throw UsageError("--\(name): '\(text)' is not a positive whole number")
        }
        return number
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
        let scheme = server.options.tls == nil ? "http" : "https"
        console.print(
            "ensign serve: OFREP on \(scheme)://\(server.address)/ofrep/v1 — environment \(context.environment),"
                + " \(flags) keys" + (hasToken ? ", token required" : ""))
        console.print("limits: \(server.limits)")
        // Beside OFREP they are served over the same TLS; a management port of its own is plain HTTP.
        let managementScheme = server.options.managementAddress == nil ? scheme : "http"
        console.print(
            "health and metrics: \(managementScheme)://\(server.managementAddress)/healthz, /readyz, /metrics"
                + (server.options.managementAddress == nil && hasToken ? " (/metrics needs the token)" : ""))
        console.print("control socket: \(socket)")
        if server.limits.eventStreams < 10_000 {
            console.printError(
                "warning: \(server.limits.eventStreams) event streams at most: the descriptor limit is"
                    + " \(server.limits.descriptors) (hard limit \(server.limits.descriptorHardLimit)); raise the"
                    + " hard limit (ulimit -Hn, or LimitNOFILE= for a systemd service) to serve a fleet")
        }
        if !server.address.isLoopback, server.options.tls == nil {
            console.printError(
                "warning: plain HTTP on \(server.address), which other machines can reach: give --tls-cert and"
                    + " --tls-key or put a TLS-terminating proxy in front, and set a token")
        }
    }
}

/// The running server, once started, for the control server's `status` (which can be asked
/// before the HTTP server is up).
private final class LockedServer: Sendable {
    private let server = LockedState<OFREPServer?>(nil)

    func set(_ server: OFREPServer) { self.server.withLock { $0 = server } }

    var statusDetails: [StatusDetail] {
        guard let server = server.withLock({ $0 }) else { return [] }
        let report = server.report
        return [
            StatusDetail(name: "serve", value: "\(server.options.tls == nil ? "http" : "https")://\(server.address)"),
            StatusDetail(name: "serve limits", value: report.limits.description),
            StatusDetail(
                name: "serve open", value: "\(report.openConnections) connections, \(report.eventStreams) event streams"
            ),
            StatusDetail(
                name: "serve refused",
                value: "\(report.refusedConnections) connections, \(report.refusedEventStreams) event streams;"
                    + " \(report.closedSlowClients) slow clients cut, \(report.reclaimedIdleConnections) idle reclaimed"
            ),
        ]
    }
}

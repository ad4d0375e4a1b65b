import Ensign
import EnsignFleet
import EnsignSupport

/// `ensign fleet list|get|set|reset`: reads and writes the fleet layer in etcd, checked
/// against the definitions. Each subcommand declares only the options it uses.
enum FleetCommand {
    static let specification = CommandSpecification(
        name: "fleet", summary: "Read and write fleet-wide flag values in etcd (every instance applies them live).",
        discussion: """
            The etcd key PREFIX+KEY holds KEY's fleet value as JSON (or YAML) text. Every app
            instance running an etcd fleet source on the same prefix applies a change within
            milliseconds (layer 4½: over deployment files, under targeting and overrides).
            """,
        epilogue: """
            examples:
              ensign fleet set beneficiaries.pageSize 50 --etcd http://127.0.0.1:2379 --prefix /bank/flags/ --flags flags/
              ensign fleet get beneficiaries.pageSize --etcd http://127.0.0.1:2379 --prefix /bank/flags/ --json
              ensign fleet set beneficiaries.pageSize 60 --if-revision 42 --etcd http://127.0.0.1:2379 --prefix /bank/flags/
            """,
        subcommands: [list, get, set, reset])

    /// `fleet list`: every value under the prefix; `--flags` adds whether the apps apply it.
    static let list = CommandSpecification(
        name: "list", summary: "Print every fleet value under the prefix, with its revision.",
        options: [
            .value("flags", "DIR", "also show which stored values the apps refuse, by these definitions"),
            .json("print one object: revision, and keys with key, etcdKey, text, value, modRevision, version"),
        ],
        sharedOptions: [etcd, EtcdTLSOptions.group],
        run: { arguments, console in
            return try actions(arguments, definitions: arguments.option("flags"), console: &console)
                .list(console: &console)
        })

    /// `fleet get KEY`: one value and its revision.
    static let get = CommandSpecification(
        name: "get", summary: "Print one key's fleet value and revision (exit 1 when it has none).", arguments: "KEY",
        options: [
            .value("flags", "DIR", "also show whether the apps refuse the stored value, by these definitions"),
            .json("print one object: key, etcdKey, text, value, modRevision, version"),
        ],
        sharedOptions: [etcd, EtcdTLSOptions.group],
        run: { arguments, console in
            let key = try arguments.onlyPositional()
            return try actions(arguments, definitions: arguments.option("flags"), console: &console)
                .get(key, console: &console)
        })

    /// `fleet set KEY VALUE`: a checked write, compare-and-swap with `--if-revision`.
    static let set = CommandSpecification(
        name: "set", summary: "Write a key's fleet value.", arguments: "KEY VALUE",
        discussion: "VALUE is JSON, else YAML, else plain text ('50', 'true', 'name', '{\"a\": 1}').",
        options: [
            .value("flags", "DIR", "check the key and the value against these definitions before writing"),
            ifRevision, .json("print one object: key, value, revision"),
        ],
        sharedOptions: [etcd, EtcdTLSOptions.group],
        run: { arguments, console in
            guard arguments.positionals.count == 2 else { throw UsageError("set takes a KEY and a VALUE") }
            let revision = try expectedRevision(arguments)
            return try actions(arguments, definitions: arguments.option("flags"), console: &console)
                .set(arguments.positionals[0], to: arguments.positionals[1], ifRevision: revision, console: &console)
        })

    /// `fleet reset KEY | --all`: deletes, compare-and-swap with `--if-revision`.
    static let reset = CommandSpecification(
        name: "reset", summary: "Remove a key's fleet value (or every one), so the lower layers decide it again.",
        arguments: "(KEY | --all)",
        options: [
            .flag("all", "remove every fleet value under the prefix"), ifRevision,
            .json("print one object: key, deleted, revision (with --all: deleted, the count, and revision)"),
        ],
        sharedOptions: [etcd, EtcdTLSOptions.group],
        run: { arguments, console in
            let revision = try expectedRevision(arguments)
            if arguments.flag("all") {
                guard arguments.positionals.isEmpty, revision == nil else {
                    throw UsageError("reset --all takes no KEY and no --if-revision")
                }
                return try actions(arguments, definitions: nil, console: &console).resetAll(console: &console)
            }
            guard arguments.positionals.count == 1 else { throw UsageError("reset takes one KEY (or --all)") }
            return try actions(arguments, definitions: nil, console: &console)
                .reset(arguments.positionals[0], ifRevision: revision, console: &console)
        })

    /// How every subcommand reaches etcd.
    static let etcd = OptionGroup(
        "reaching etcd",
        [
            .value(
                "etcd", "URL[,URL…]", "etcd client URLs, http:// or https:// (repeat or separate with commas)",
                repeatable: true, required: true),
            .value("prefix", "P", "the key prefix the apps watch, such as /myapp/flags/", required: true),
            .value("user", "NAME", "authenticate as NAME; the password is read from $ENSIGN_ETCD_PASSWORD"),
        ])

    /// `--if-revision N`, for the subcommands that write.
    static let ifRevision = OptionSpecification.value(
        "if-revision", "N",
        "write only if the key's revision (mod_revision) is still N, atomically (0: only if the key has no"
            + " value); a key changed in the meantime exits 1 and shows its current revision")

    /// The `--if-revision` number, if given.
    static func expectedRevision(_ arguments: ParsedArguments) throws(UsageError) -> Int64? {
        guard let text = arguments.option("if-revision") else { return nil }
        guard let revision = Int64(text), revision >= 0 else {
            throw UsageError("--if-revision must be a revision number (0 or more), not '\(text)'")
        }
        return revision
    }

    /// The client, and the definitions in `directory` when one is given, for one invocation.
    static func actions(_ arguments: ParsedArguments, definitions directory: String?, console: inout Console) throws
        -> FleetActions
    {
        let endpoints = arguments.options("etcd").flatMap(EtcdConfiguration.endpoints(fromList:))
        guard !endpoints.isEmpty else { throw UsageError("give the etcd endpoints with --etcd URL[,URL…]") }
        guard let prefix = arguments.option("prefix"), !prefix.isEmpty else {
            throw UsageError("give the key prefix with --prefix P (such as /myapp/flags/)")
        }
        var configuration = EtcdConfiguration(endpoints: endpoints, keyPrefix: prefix)
        EtcdTLSOptions.apply(arguments, to: &configuration)
        if let user = arguments.option("user") {
            let password = ProcessEnvironment.value("ENSIGN_ETCD_PASSWORD") ?? ""
            configuration.credentials = EtcdCredentials(username: user, password: password)
        }
        let definitions = try directory.map { try loadDefinitions($0, console: &console) }
        return FleetActions(
            client: try EtcdClient(configuration: configuration), definitions: definitions,
            isJSON: arguments.flag("json"))
    }

    /// The definitions in `directory`, or a thrown failure after printing their errors.
    private static func loadDefinitions(_ directory: String, console: inout Console) throws -> DefinitionSet {
        let loaded = DefinitionLoader().loadDirectory(directory)
        for diagnostic in loaded.diagnostics where diagnostic.isError {
            console.printError(DiagnosticPrinter.format(diagnostic, console: console))
        }
        guard !loaded.diagnostics.containsErrors else { throw FleetCommandError("the definitions have errors") }
        return loaded.definitions
    }
}

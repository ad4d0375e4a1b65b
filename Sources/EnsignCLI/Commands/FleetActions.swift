import Ensign
import EnsignFleet
import EnsignSupport

/// What the `ensign fleet` subcommands do, with one invocation's client, definitions and
/// output style.
struct FleetActions {
    let client: EtcdClient
    let definitions: DefinitionSet?
    let isJSON: Bool

    func list(console: inout Console) throws -> Int32 {
        let range = try client.rangeOfPrefix()
        let prefixLength = client.configuration.keyPrefix.utf8.count
        let entries = range.keyValues.map { keyValue in
            (key: String(decoding: keyValue.key.utf8.dropFirst(prefixLength), as: UTF8.self), keyValue: keyValue)
        }
        if isJSON {
            let keys = entries.map { json(key: $0.key, keyValue: $0.keyValue) }
            console.print(
                JSONValue.object(["revision": .string(String(range.revision)), "keys": .array(keys)]).jsonText)
            return ExitStatus.success
        }
        var table = TableFormatter(
            header: definitions == nil ? ["KEY", "VALUE", "REVISION"] : ["KEY", "VALUE", "REVISION", "STATUS"])
        for entry in entries {
            var row = [entry.key, entry.keyValue.valueText, String(entry.keyValue.modRevision)]
            if definitions != nil { row.append(problem(key: entry.key, keyValue: entry.keyValue) ?? "ok") }
            table.add(row)
        }
        for line in table.lines(console: console) { console.print(line) }
        if entries.isEmpty {
            console.print(console.styled("(no fleet values under \(client.configuration.keyPrefix))", .dim))
        }
        return ExitStatus.success
    }

    func get(_ key: String, console: inout Console) throws -> Int32 {
        let (keyValue, _) = try client.get(client.etcdKey(forFlagKey: key))
        guard let keyValue else {
            console.printError(
                "ensign fleet: '\(key)' has no fleet value (no etcd key \(client.etcdKey(forFlagKey: key)))")
            return ExitStatus.failure
        }
        if isJSON {
            console.print(json(key: key, keyValue: keyValue).jsonText)
        } else {
            var table = TableFormatter(header: ["FIELD", "VALUE"])
            table.add(["key", key])
            table.add(["value", keyValue.valueText])
            table.add(["revision", String(keyValue.modRevision)])
            table.add(["etcd key", keyValue.key])
            if definitions != nil { table.add(["status", problem(key: key, keyValue: keyValue) ?? "ok"]) }
            for line in table.lines(console: console).dropFirst() { console.print(line) }
        }
        return ExitStatus.success
    }

    func set(_ key: String, to text: String, ifRevision: Int64?, console: inout Console) throws -> Int32 {
        var value: JSONValue
        switch FleetValueText.parse(Array(text.utf8), path: "VALUE") {
        case .value(let parsed): value = parsed
        case .unreadable: value = .string(text)
        }
        if let definitions {
            guard let definition = definitions[key] else {
                console.printError(
                    "ensign fleet: no flag or preference '\(key)' is defined in the definitions given with --flags,"
                        + " so nothing was written" + Suggestions.didYouMean(key, among: definitions.keys))
                return ExitStatus.failure
            }
            switch definition.check(value) {
            case .success(let checked): value = checked
            case .failure(let problem):
                console.printError("ensign fleet: '\(key)' value \(problem); nothing was written")
                return ExitStatus.failure
            }
        } else {
            console.printError("note: the value was not checked against the definitions (give --flags DIR)")
        }
        let etcdKey = client.etcdKey(forFlagKey: key)
        let bytes = Array(value.jsonText.utf8)
        let revision: Int64
        if let ifRevision {
            guard let written = try guardedWrite(key, value: bytes, ifRevision: ifRevision, console: &console)
            else {
                return ExitStatus.failure
            }
            revision = written
        } else {
            revision = try client.put(etcdKey, value: bytes)
        }
        if isJSON {
            console.print(
                JSONValue.object(["key": .string(key), "value": value, "revision": .string(String(revision))])
                    .jsonText)
        } else {
            console.print("\(key) = \(value.jsonText) (etcd revision \(revision))")
        }
        return ExitStatus.success
    }

    func reset(_ key: String, ifRevision: Int64?, console: inout Console) throws -> Int32 {
        let etcdKey = client.etcdKey(forFlagKey: key)
        let revision: Int64
        var deleted: Int64 = 1
        if let ifRevision {
            guard let written = try guardedWrite(key, value: nil, ifRevision: ifRevision, console: &console) else {
                return ExitStatus.failure
            }
            revision = written
        } else {
            (revision, deleted) = try client.delete(etcdKey)
        }
        if isJSON {
            console.print(
                JSONValue.object([
                    "key": .string(key), "deleted": .bool(deleted > 0), "revision": .string(String(revision)),
                ])
                .jsonText)
        } else if deleted > 0 {
            console.print(
                "\(key): fleet value removed (etcd revision \(revision)); the lower layers decide it again")
        } else {
            console.print("\(key) had no fleet value")
        }
        return ExitStatus.success
    }

    func resetAll(console: inout Console) throws -> Int32 {
        let (revision, deleted) = try client.deletePrefix()
        if isJSON {
            console.print(
                JSONValue.object(["deleted": .int(Int(deleted)), "revision": .string(String(revision))]).jsonText)
        } else {
            console.print("removed \(deleted) fleet value\(deleted == 1 ? "" : "s") (etcd revision \(revision))")
        }
        return ExitStatus.success
    }

    /// Why the apps refuse a stored value (with --flags), or `nil` when they apply it.
    private func problem(key: String, keyValue: EtcdKeyValue) -> String? {
        guard let definitions else { return nil }
        guard let definition = definitions[key] else { return "undefined: the apps ignore it" }
        switch FleetValueText.parse(keyValue.value, path: "etcd:" + keyValue.key) {
        case .unreadable(let reason): return "refused: \(reason)"
        case .value(let value):
            if case .failure(let problem) = definition.check(value) { return "refused: value \(problem)" }
            return nil
        }
    }

    private func json(key: String, keyValue: EtcdKeyValue) -> JSONValue {
        var object: [String: JSONValue] = [
            "key": .string(key), "etcdKey": .string(keyValue.key), "text": .string(keyValue.valueText),
            "modRevision": .string(String(keyValue.modRevision)), "version": .string(String(keyValue.version)),
        ]
        if case .value(let value) = FleetValueText.parse(keyValue.value, path: "etcd:" + keyValue.key) {
            object["value"] = value
        } else {
            object["value"] = .null
        }
        if definitions != nil {
            object["problem"] = problem(key: key, keyValue: keyValue).map(JSONValue.string) ?? .null
        }
        return .object(object)
    }

    /// Writes (or, with `nil`, deletes) `key` if its revision is still `ifRevision`; returns
    /// the write's revision, or `nil` after explaining the conflict.
    private func guardedWrite(
        _ key: String, value: [UInt8]?, ifRevision: Int64, console: inout Console
    ) throws -> Int64? {
        switch try client.write(client.etcdKey(forFlagKey: key), value: value, ifModRevision: ifRevision) {
        case .succeeded(let revision):
            return revision
        case .failed(let current, _):
            let action = value == nil ? "reset" : "written"
            console.printError(conflict(key, expected: ifRevision, current: current, action: action))
            return nil
        }
    }

    private func conflict(_ key: String, expected: Int64, current: EtcdKeyValue?, action: String) -> String {
        let state =
            current.map { "its revision is \($0.modRevision) (value \($0.valueText))" }
            ?? "it has no fleet value (revision 0)"
        return "ensign fleet: '\(key)' was not \(action): \(state), not \(expected) as --if-revision expected;"
            + " someone changed it meanwhile. Read it again with 'ensign fleet get \(key)' and retry."
    }
}

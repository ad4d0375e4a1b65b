import Ensign
import EnsignTooling

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The `directory` target: a whole definitions directory with its environment overlay and the
/// user's state files, written to disk and loaded as an app loads it (``AppContext`` from an
/// ``AppContextConfiguration``), checked as `ensign validate` checks it (``ConfigValidator``),
/// then edited and reloaded.
///
/// Input format: sections, each starting at a line `=== NAME` (bytes before the first header
/// are the file `flags.yaml`). NAME is
///
/// - `environments/<env>.yaml` (or `.yml`, `.json`): an environment overlay; the first one
///   names the environment loaded (`development` when there is none);
/// - `@preferences` or `@overrides`: the user's preferences or persisted overrides file, in a
///   private (0700) state directory;
/// - `@reload NAME`: after loading, NAME (any of these names) is rewritten with this section's
///   bytes and the context reloads; `@remove NAME` deletes NAME and reloads;
/// - anything else: a definitions file of that name at the top of the directory.
///
/// Names keep only `A-Z a-z 0-9 . _ -` (other bytes are dropped) and at most 64 of them; a
/// name left empty, or made of dots, drops its section. A later section of the same name
/// replaces an earlier one.
///
/// Checked: loading succeeds, or throws ``AppContextLoadError`` whose errors each name a file
/// in the directory; when `validate` finds no error for the environment, the context loads;
/// every defined key reads and explains; a reload applies or fails each part on its own (the
/// definitions side, the preferences file, the overrides file), and a part that fails keeps
/// its values; and validation's and reloads' diagnostics name files in the directory too.
enum DirectoryTarget {
    /// One file, or one edit made after loading.
    private struct Section {
        enum Action {
            case write
            case reload
            case remove
        }

        var action: Action
        /// The file's path relative to the scratch directory.
        var path: String
        var bytes: [UInt8]
    }

    private static var flags: String { ScratchDirectory.root + "/flags" }
    private static var state: String { ScratchDirectory.root + "/state" }
    fileprivate static var preferencesFile: String { state + "/preferences.yaml" }
    fileprivate static var overridesFile: String { state + "/overrides.yaml" }

    /// The validator, with a fixed day so that expiry warnings do not change from day to day.
    private static let validator = ConfigValidator(loader: DefinitionLoader(today: CalendarDay("2026-01-01")!))

    /// Runs one input.
    static func run(_ input: [UInt8]) {
        let sections = Self.sections(of: input)
        ScratchDirectory.removeTree(flags)
        ScratchDirectory.removeTree(state)
        ScratchDirectory.makeDirectory(flags)
        ScratchDirectory.makeDirectory(flags + "/environments")
        ScratchDirectory.makeDirectory(state)
        var environment = "development"
        var namesEnvironment = false
        for section in sections where section.action == .write {
            ScratchDirectory.write(section.bytes, to: ScratchDirectory.root + "/" + section.path)
            if !namesEnvironment, section.path.hasPrefix("flags/environments/") {
                environment = baseName(section.path)
                namesEnvironment = true
            }
        }
        let validation = validator.validate(paths: [flags], environment: environment)
        checkLocations(validation.diagnostics, "validate --env \(environment)")
        checkLocations(validator.validate(paths: [flags, preferencesFile, overridesFile]).diagnostics, "validate")

        var configuration = AppContextConfiguration(
            definitionsDirectory: flags, environment: environment, preferencesFile: preferencesFile,
            overridesFile: overridesFile)
        configuration.watchesFiles = false
        let context: AppContext
        do {
            context = try AppContext(configuration: configuration)
        } catch {
            fuzzCheck(error.diagnostics.containsErrors, "a refused load reports no error")
            checkLocations(error.diagnostics, "the load")
            fuzzCheck(
                validation.errorCount > 0,
                "validate --env \(environment) finds no error, but the context refuses to load:\n\(error)")
            return
        }
        var before = readEveryKey(of: context)
        for section in sections where section.action != .write {
            let path = ScratchDirectory.root + "/" + section.path
            if section.action == .remove {
                unlink(path)
            } else {
                ScratchDirectory.write(section.bytes, to: path)
            }
            let diagnostics = context.reload()
            checkLocations(diagnostics, "a reload")
            let after = readEveryKey(of: context)
            checkFailedParts(of: diagnostics, before: before, after: after)
            if diagnostics.containsErrors {
                fuzzCheck(context.status.isDegraded, "a failed reload left the context healthy")
            }
            before = after
        }
    }

    // MARK: Reloads

    /// The parts of a reload, each applied or failed on its own: the definitions side (the
    /// definitions, the environment overlay), the preferences file, the overrides file.
    private enum Part: Hashable, CaseIterable {
        case definitions
        case preferences
        case overrides

        /// The part that sets values of `layer` (`nil`: none a reload reads).
        init?(_ layer: ValueLayer) {
            switch layer {
            case .definition, .environment, .deployment, .targeting: self = .definitions
            case .preference: self = .preferences
            case .override: self = .overrides
            case .codeDefault, .fleet, .scopeOverride: return nil
            }
        }

        /// The part a diagnostic's file belongs to.
        init(file: String) {
            if file == DirectoryTarget.preferencesFile {
                self = .preferences
            } else if file == DirectoryTarget.overridesFile {
                self = .overrides
            } else {
                self = .definitions
            }
        }
    }

    /// One layer's value for a key, where it comes from.
    private struct LayerValue: Hashable {
        var value: JSONValue
        var location: SourcePosition?
    }

    /// What the context holds: each key's value in force, and its layers' values by part.
    private struct Reading: Equatable {
        var values: [String: JSONValue] = [:]
        var layers: [String: [Part: [LayerValue]]] = [:]
    }

    /// A reload applies each part or fails it on its own: a part that fails keeps its own
    /// values (the definitions side also keeps the set of keys), and a reload whose every
    /// part fails changes no value.
    private static func checkFailedParts(of diagnostics: [Diagnostic], before: Reading, after: Reading) {
        let failed = Set(diagnostics.filter(\.isError).map { Part(file: $0.location.file) })
        guard !failed.isEmpty else { return }
        let report = diagnostics.map(\.description).joined(separator: "\n")
        if failed.count == Part.allCases.count {
            let changed = Set(before.values.keys).union(after.values.keys).sorted().filter {
                before.values[$0] != after.values[$0]
            }
            fuzzCheck(changed.isEmpty, "a reload that failed in every part changed \(changed):\n\(report)")
        }
        if failed.contains(.definitions) {
            fuzzCheck(
                Set(before.values.keys) == Set(after.values.keys),
                "a reload whose definitions failed changed the keys:\n\(report)")
        }
        for part in failed {
            for (key, layers) in before.layers where after.layers[key] != nil {
                fuzzCheck(
                    layers[part] == after.layers[key]?[part],
                    "a reload whose \(part) failed changed that part's values of \(key):\n\(report)")
            }
        }
    }

    /// Every key's value and layers, after reading its details.
    private static func readEveryKey(of context: AppContext) -> Reading {
        var reading = Reading()
        for key in context.definitions.keys {
            reading.values[key] = context.details(forKeyNamed: key).value
            var layers: [Part: [LayerValue]] = [:]
            for layer in context.explain(keyNamed: key).layers {
                guard let part = Part(layer.source.layer) else { continue }
                layers[part, default: []].append(LayerValue(value: layer.value, location: layer.source.location))
            }
            reading.layers[key] = layers
        }
        return reading
    }

    /// Checks that every error and warning names a file in the scratch directory.
    private static func checkLocations(_ diagnostics: [Diagnostic], _ what: String) {
        for diagnostic in diagnostics where diagnostic.severity != .note {
            fuzzCheck(
                diagnostic.location.file.hasPrefix(ScratchDirectory.root + "/"),
                "\(what) reports a problem that names no file in the directory: \(diagnostic)")
        }
    }

    /// `staging` for `flags/environments/staging.yaml`.
    private static func baseName(_ path: String) -> String {
        let file = path.split(separator: "/").last.map(String.init) ?? path
        return file.lastIndex(of: ".").map { String(file[..<$0]) } ?? file
    }

    // MARK: The input format

    /// The sections of `input`, at most 16.
    private static func sections(of input: [UInt8]) -> [Section] {
        var sections: [Section] = []
        var header: [UInt8]? = nil
        var body: [UInt8] = []
        var lineStart = 0
        func finish() {
            if let section = section(header: header, body: body), sections.count < 16 { sections.append(section) }
        }
        while lineStart <= input.count {
            let lineEnd = input[lineStart...].firstIndex(of: 0x0A) ?? input.count
            let line = input[lineStart..<lineEnd]
            if line.starts(with: Array("=== ".utf8)) {
                finish()
                header = Array(line.dropFirst(4))
                body = []
            } else {
                body += line
                if lineEnd < input.count { body.append(0x0A) }
            }
            lineStart = lineEnd + 1
        }
        finish()
        return sections
    }

    /// The section a header names (`nil`: the bytes before any header).
    private static func section(header: [UInt8]?, body: [UInt8]) -> Section? {
        guard let header else {
            return body.isEmpty ? nil : Section(action: .write, path: "flags/flags.yaml", bytes: body)
        }
        let text = String(decoding: header, as: UTF8.self)
        for (prefix, action) in [("@reload ", Section.Action.reload), ("@remove ", .remove)]
        where text.hasPrefix(prefix) {
            guard let path = path(forName: Array(header.dropFirst(prefix.utf8.count))) else { return nil }
            return Section(action: action, path: path, bytes: body)
        }
        return path(forName: header).map { Section(action: .write, path: $0, bytes: body) }
    }

    /// The path, relative to the scratch directory, of the file a section names.
    private static func path(forName name: [UInt8]) -> String? {
        let text = String(decoding: name, as: UTF8.self)
        if text == "@preferences" { return "state/preferences.yaml" }
        if text == "@overrides" { return "state/overrides.yaml" }
        let isEnvironment = text.hasPrefix("environments/")
        let file = fileName(isEnvironment ? Array(name.dropFirst("environments/".utf8.count)) : name)
        guard let file else { return nil }
        return isEnvironment ? "flags/environments/" + file : "flags/" + file
    }

    /// `name` with only the bytes a file name may keep here, or `nil` when nothing usable is left.
    private static func fileName(_ name: [UInt8]) -> String? {
        let kept = name.filter { byte in
            (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                || byte == 0x2E || byte == 0x5F || byte == 0x2D
        }
        guard !kept.isEmpty, !kept.allSatisfy({ $0 == 0x2E }) else { return nil }
        return String(decoding: kept.prefix(64), as: UTF8.self)
    }
}

import EnsignYAML

/// Loads definitions and overlays from files or in-memory sources, collecting every problem.
///
/// This is the basic operation: a context loads through it, and `ConfigValidator` (EnsignTooling: what
/// `ensign validate` runs) calls it for every file it checks.
///
/// A definitions directory holds `*.yaml`, `*.yml` and `*.json` definitions files, and
/// environment overlays in `environments/<name>.yaml`. Symbolic links are followed and names
/// starting with `.` are skipped, which is how a Kubernetes ConfigMap volume looks (its
/// files are links into a hidden `..data` directory).
///
/// ```swift
/// let loaded = DefinitionLoader().loadDirectory("flags", environment: "production")
/// for diagnostic in loaded.diagnostics { print(diagnostic) }
/// let overlay = loaded.environmentOverlay
/// ```
package struct DefinitionLoader: Sendable {
    /// The YAML limits applied to every file.
    package var limits: YAMLLimits
    /// The day `expires:` is compared with.
    package var today: CalendarDay
    /// How targeting rules are compiled (for example, which `fractional` hashing to use).
    package var targetingOptions: TargetingOptions

    /// Creates a loader.
    package init(
        limits: YAMLLimits = YAMLLimits(), today: CalendarDay = .today(),
        targetingOptions: TargetingOptions = TargetingOptions()
    ) {
        self.limits = limits
        self.today = today
        self.targetingOptions = targetingOptions
    }

    /// How an overlay file with no content (zero bytes, only whitespace or comments) is
    /// reported: a warning by default (`validate --strict` fails on it); an error for a
    /// running context's reload, where an emptied file is far more often a half-written one
    /// than a wish to remove every value.
    package var emptyOverlaySeverity: Diagnostic.Severity = .warning

    /// From how many bytes up a definitions file is read on two threads: libyaml parses ahead
    /// of the reader (`LibYAMLPrefetcher`) and targeting rules compile as they are read
    /// (``RuleCompilationPipeline``). Tests compare 0 and `.max`. (Rules left to compile once
    /// reading ends go to two threads when there are many, whatever the file's size: see
    /// ``FlagTargetingCompiler/compileAll(_:parallelFrom:)``.)
    package var parallelThreshold = YAMLParser.defaultPrefetchThreshold

    /// The file extensions read from a directory.
    package static let fileExtensions = ["yaml", "yml", "json"]

    /// Loads a definitions directory's definitions and, when `environment` is given, that
    /// environment's overlay: only what a context for it resolves. A file in place of the
    /// directory is read as a definitions bundle (``loadBundle(_:environment:checksEnvironment:)``).
    ///
    /// Other environments' overlays are not read, so a broken `staging.yaml` does not stop a
    /// production context (`ensign validate` checks them all). An environment that no file
    /// mentions is an error naming the known ones (see `KnownEnvironments`).
    ///
    /// - Parameters:
    ///   - path: the definitions directory.
    ///   - environment: the environment whose overlay is read; `nil` reads definitions only.
    ///   - checksEnvironment: whether an environment no file mentions is an error
    ///     (a running context's reload passes `false`: its environment was checked at
    ///     start-up, and an environment file deleted since is a removal of its values).
    package func loadDirectory(
        _ path: String, environment: String? = nil, checksEnvironment: Bool = true
    ) -> DirectoryLoadResult {
        guard ConfigDirectory.isDirectory(path) else {
            if FileSystem.exists(path) {
                return loadBundle(path, environment: environment, checksEnvironment: checksEnvironment)
            }
            return DirectoryLoadResult(
                definitions: .empty, environmentOverlay: nil, knownEnvironments: [],
                diagnostics: [Diagnostic(.error, at: .unknown(path), "no such directory")])
        }
        let directory = DefinitionsDirectory(path: path)
        var diagnostics = directory.listingProblems(environment: environment ?? "")
        let files = directory.definitionFiles()
        if files.isEmpty { diagnostics.append(Self.noDefinitionFiles(in: path)) }
        let loaded = loadDefinitions(from: files, into: &diagnostics)
        let environmentFiles = directory.environmentFiles()
        var environmentOverlay: Overlay?
        if let environment {
            let (overlay, found) = loadEnvironmentOverlay(
                environment, from: environmentFiles, of: path, definitions: loaded.definitions,
                checksEnvironment: checksEnvironment)
            environmentOverlay = overlay
            diagnostics += found
        }
        let known = KnownEnvironments(definitions: loaded.definitions, overlayNames: environmentFiles.map(\.name))
        return DirectoryLoadResult(
            definitions: loaded.definitions, environmentOverlay: environmentOverlay,
            knownEnvironments: known.names.sorted(), diagnostics: (diagnostics + loaded.diagnostics).sortedByLocation(),
            flagErrors: loaded.flagErrors)
    }

    /// The warning for a directory without definitions files.
    package static func noDefinitionFiles(in path: String) -> Diagnostic {
        Diagnostic(.warning, at: .unknown(path), "no definitions files (*.yaml, *.yml, *.json) found here")
    }

    /// Reads `environment`'s overlay (one of `files`, the listing of the definitions directory
    /// at `path`) against `definitions`, after checking that some file mentions the
    /// environment. No overlay and no problem when only inline values mention it.
    func loadEnvironmentOverlay(
        _ environment: String, from files: [DefinitionsDirectory.EnvironmentFile], of path: String,
        definitions: DefinitionSet, checksEnvironment: Bool = true
    ) -> (Overlay?, [Diagnostic]) {
        let known = KnownEnvironments(definitions: definitions, overlayNames: files.map(\.name))
        if checksEnvironment,
            let problem = known.problem(
                with: environment, at: .unknown(path), ownFile: "environments/\(environment).yaml")
        {
            return (nil, [problem])
        }
        guard let file = files.first(where: { $0.name == environment }) else { return (nil, []) }
        do {
            return readOverlay(try ConfigSource.file(file.path, limits: limits), definitions: definitions)
        } catch {
            return (nil, [Diagnostic(error)])
        }
    }

    /// Reads and loads definitions files, adding the files that cannot be read to `diagnostics`.
    func loadDefinitions(from paths: [String], into diagnostics: inout [Diagnostic]) -> DefinitionLoadResult {
        loadDefinitions(paths.compactMap { readFile(atPath: $0, into: &diagnostics) })
    }

    /// Reads and parses one file, or records why it cannot be.
    package func parseFile(_ path: String, into diagnostics: inout [Diagnostic]) -> ParsedFile? {
        do {
            let source = try ConfigSource.file(path, limits: limits)
            return ParsedFile(name: path, documents: try parse(source))
        } catch {
            diagnostics.append(Diagnostic(error))
            return nil
        }
    }

    /// Loads definitions from sources (files already read, or in-memory text).
    package func loadDefinitions(from sources: [ConfigSource]) -> DefinitionLoadResult {
        loadDefinitions(reading: sources) { source throws(YAMLError) in try readFile(source) }
    }

    /// A file that has been parsed but not yet interpreted.
    package struct ParsedFile {
        package var name: String
        package var documents: [YAMLNode]

        package init(name: String, documents: [YAMLNode]) {
            self.name = name
            self.documents = documents
        }
    }

    /// A definitions file read from its events: one reader for each document.
    package struct ReadFile {
        package var name: String
        var documents: [DefinitionFileReader]
        /// Still compiling the file's rules: ``loadDefinitions(_:)-([ReadFile])`` finishes it.
        var pipeline: RuleCompilationPipeline? = nil

        /// Whether the file read as definitions: its first document declares them and is not
        /// a bundle (a bundle or an overlay is parsed whole and read as one instead).
        package var holdsDefinitions: Bool {
            documents.first.map { !$0.hasBundleMember && $0.declaresDefinitions } ?? true
        }
    }

    /// Parses a source: a `.json` file as JSON (flagd's files hold strings libyaml refuses),
    /// anything else as YAML.
    package func parse(_ source: ConfigSource) throws(YAMLError) -> [YAMLNode] {
        let parser = YAMLParser(limits: limits)
        if source.name.hasSuffix(".json") { return try parser.documents(fromJSON: source.bytes, file: source.name) }
        return try parser.documents(from: source.bytes, file: source.name)
    }

    /// Reads the definitions file at `path`, or records why it cannot be.
    package func readFile(atPath path: String, into diagnostics: inout [Diagnostic]) -> ReadFile? {
        do {
            return try readFile(try ConfigSource.file(path, limits: limits))
        } catch {
            diagnostics.append(Diagnostic(error))
            return nil
        }
    }

    /// Reads a definitions source from its events (JSON as ``parse(_:)`` reads it). A syntax
    /// error anywhere fails the whole file.
    ///
    /// - Parameter stopsAtBundleMember: whether to stop at an `ensignBundle` member at the top
    ///   of the first document (the file is then a bundle, read otherwise).
    package func readFile(_ source: ConfigSource, stopsAtBundleMember: Bool = false) throws(YAMLError) -> ReadFile {
        let parser = YAMLParser(limits: limits, prefetchThreshold: parallelThreshold)
        let isJSON = source.name.hasSuffix(".json")
        // A large file's rules compile on a second thread while the rest of it is read.
        let pipeline =
            source.bytes.count >= parallelThreshold ? RuleCompilationPipeline(options: targetingOptions) : nil
        // A refused file drops its pipeline, which stops the thread.
        let documents = try readDocuments(stopsAtBundleMember: stopsAtBundleMember, pipeline: pipeline) {
            body throws(YAMLError) in
            try parser.readEvents(
                from: source.bytes, file: source.name, isJSON: isJSON, whileParsedAhead: pipeline?.idleWork, body)
        }
        return ReadFile(name: source.name, documents: documents, pipeline: pipeline)
    }

    /// Reads a parsed file, replaying its trees through the same reader as a file's events.
    package func readFile(_ file: ParsedFile) throws(YAMLError) -> ReadFile {
        let parser = YAMLParser(limits: limits)
        let documents = try readDocuments(stopsAtBundleMember: false, pipeline: nil) { body throws(YAMLError) in
            try parser.readEvents(replaying: file.documents, file: file.name, body)
        }
        return ReadFile(name: file.name, documents: documents)
    }

    /// Reads every document of the stream `withEvents` runs a reader over; a second time,
    /// knowing each document's header, when a namespace or metadata came after definitions.
    private func readDocuments(
        stopsAtBundleMember: Bool, pipeline: RuleCompilationPipeline?,
        _ withEvents: ((inout YAMLEventReader) throws(YAMLError) -> [DefinitionFileReader]) throws(YAMLError) ->
            [DefinitionFileReader]
    ) throws(YAMLError) -> [DefinitionFileReader] {
        let readers = try withEvents { reader throws(YAMLError) in
            try readDocuments(
                from: &reader, knownHeaders: nil, stopsAtBundleMember: stopsAtBundleMember, pipeline: pipeline)
        }
        guard readers.contains(where: \.needsHeaderFirst), readers.first?.hasBundleMember != true else {
            return readers
        }
        let headers = readers.map(\.header)
        return try withEvents { reader throws(YAMLError) in
            try readDocuments(from: &reader, knownHeaders: headers, stopsAtBundleMember: false, pipeline: pipeline)
        }
    }

    /// Reads every document under the reader, each with its header when `knownHeaders` gives them.
    private func readDocuments(
        from reader: inout YAMLEventReader, knownHeaders: [DefinitionFileReader.Header]?, stopsAtBundleMember: Bool,
        pipeline: RuleCompilationPipeline?
    ) throws(YAMLError) -> [DefinitionFileReader] {
        var readers: [DefinitionFileReader] = []
        while try reader.nextDocument() {
            let header = knownHeaders.flatMap { readers.count < $0.count ? $0[readers.count] : nil }
            var fileReader = DefinitionFileReader(
                today: today, knownHeader: header, stopsAtBundleMember: stopsAtBundleMember && readers.isEmpty,
                pipeline: pipeline)
            try fileReader.read(from: &reader)
            readers.append(fileReader)
            if fileReader.hasBundleMember { break }
        }
        return readers
    }

    /// Loads read files into definitions, in order: a key defined again is an error at its
    /// second place. A file without documents is an error.
    package func loadDefinitions(_ files: [ReadFile]) -> DefinitionLoadResult {
        var collector = DefinitionCollector()
        for file in files {
            if file.documents.isEmpty {
                collector.diagnostics.append(
                    Diagnostic(
                        .error, at: SourcePosition(file: file.name, line: 1, column: 1),
                        "the file is empty; a definitions file needs 'flags:' or 'preferences:'"))
            }
            for reader in file.documents { collector.add(reader) }
        }
        return finish(collector, files: files.map(\.name), pipelines: files.compactMap(\.pipeline))
    }

    /// Reads parsed files (a bundle's members) into definitions.
    package func loadDefinitions(_ files: [ParsedFile]) -> DefinitionLoadResult {
        loadDefinitions(reading: files) { file throws(YAMLError) in try readFile(file) }
    }

    /// Reads each of `inputs` with `read` and loads the files that read; why the others did not
    /// is among the result's diagnostics, in order of location with the rest.
    private func loadDefinitions<Input>(
        reading inputs: [Input], with read: (Input) throws(YAMLError) -> ReadFile
    ) -> DefinitionLoadResult {
        var diagnostics: [Diagnostic] = []
        var files: [ReadFile] = []
        for input in inputs {
            do {
                files.append(try read(input))
            } catch {
                diagnostics.append(Diagnostic(error))
            }
        }
        var result = loadDefinitions(files)
        result.diagnostics = (diagnostics + result.diagnostics).sortedByLocation()
        return result
    }

    /// Builds the set and compiles the collected definitions' targeting: the set first, while
    /// `pipelines` may still be compiling rules on their background threads.
    private func finish(
        _ collector: DefinitionCollector, files names: [String], pipelines: [RuleCompilationPipeline]
    ) -> DefinitionLoadResult {
        let definitions = collector.definitions
        let set = DefinitionSet(uniqueDefinitions: definitions, evaluators: collector.evaluators, files: names)
        for pipeline in pipelines { pipeline.finish() }
        var compiler = FlagTargetingCompiler(
            evaluators: collector.evaluators, evaluatorNodes: collector.evaluatorNodes, options: targetingOptions)
        compiler.compileAll(definitions)
        compiler.checkEvaluators()
        return DefinitionLoadResult(
            definitions: set,
            diagnostics: (collector.diagnostics + compiler.warnings + compiler.errors).sortedByLocation(),
            flagErrors: collector.flagErrors + compiler.errors)
    }

    /// Checks already-parsed overlay documents against `definitions`.
    package func readOverlay(_ file: ParsedFile, definitions: DefinitionSet) -> (Overlay, [Diagnostic]) {
        var reader = OverlayReader(definitions: definitions)
        let overlay = reader.read(file.documents, source: file.name)
        var diagnostics = reader.diagnostics
        if file.documents.isEmpty {
            diagnostics.append(
                Diagnostic(
                    emptyOverlaySeverity, at: SourcePosition(file: file.name, line: 1, column: 1),
                    "the file is empty; delete it to remove its values, or write '{}' for an overlay that sets nothing")
            )
        }
        return (overlay, diagnostics.sortedByLocation())
    }

    /// Reads an overlay and checks its values against `definitions`.
    package func readOverlay(_ source: ConfigSource, definitions: DefinitionSet) -> (Overlay, [Diagnostic]) {
        do {
            return readOverlay(ParsedFile(name: source.name, documents: try parse(source)), definitions: definitions)
        } catch {
            return (Overlay(source: source.name), [Diagnostic(error)])
        }
    }
}

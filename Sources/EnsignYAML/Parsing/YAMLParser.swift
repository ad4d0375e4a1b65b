#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Parses YAML text into ``YAMLNode`` trees that remember where every node came from.
///
/// Built on libyaml's event API. Aliases are resolved, merge keys (`<<`) applied, duplicate
/// keys rejected, and the ``YAMLLimits`` enforced, so hostile input becomes a ``YAMLError``.
/// A stream may hold several documents; an empty stream holds none.
///
/// ```swift
/// let parser = YAMLParser()
/// let documents = try parser.documents(from: "a: 1\n---\nb: 2\n", file: "two.yaml")
/// print(documents.count)  // 2
/// ```
package struct YAMLParser: Sendable {
    /// The bounds this parser enforces.
    package var limits: YAMLLimits
    /// From how many bytes up libyaml parses on a second thread, ahead of the reader (see
    /// `LibYAMLPrefetcher`): below it, starting a thread costs more than it saves.
    package var prefetchThreshold: Int

    /// The input size from which ``prefetchThreshold`` parses ahead by default.
    package static let defaultPrefetchThreshold = 128 << 10

    /// Creates a parser with the given limits.
    package init(limits: YAMLLimits = YAMLLimits(), prefetchThreshold: Int = defaultPrefetchThreshold) {
        self.limits = limits
        self.prefetchThreshold = prefetchThreshold
    }

    /// Parses every document in `text`; `file` labels locations in nodes and errors.
    package func documents(from text: String, file: String) throws(YAMLError) -> [YAMLNode] {
        try documents(from: Array(text.utf8), file: file)
    }

    /// Parses every document in the UTF-8 (or UTF-16 with a byte-order mark) `bytes`.
    ///
    /// Without the `YAML` trait (no libyaml) the text must be JSON (see `jsonDocuments`).
    package func documents(from bytes: [UInt8], file: String) throws(YAMLError) -> [YAMLNode] {
        try readEvents(from: bytes, file: file) { reader throws(YAMLError) in
            var documents: [YAMLNode] = []
            while try reader.nextDocument() { documents.append(try reader.composeNode()) }
            return documents
        }
    }

    /// Runs `body` with a reader over the events of the UTF-8 `bytes` (see
    /// ``documents(from:file:)``), or of JSON's when `isJSON` (see ``documents(fromJSON:file:)``).
    ///
    /// The reader lives as long as `body` runs; a definitions file is read through it without
    /// ever being one tree.
    package func readEvents<Result>(
        from bytes: [UInt8], file: String, isJSON: Bool = false, whileParsedAhead idleWork: IdleWork? = nil,
        _ body: (inout YAMLEventReader) throws(YAMLError) -> Result
    ) throws(YAMLError) -> Result {
        try checkSize(of: bytes, file: file)
        #if YAML
            if !isJSON {
                // libyaml needs a valid pointer even for empty input.
                let input = bytes.isEmpty ? [0] : bytes
                var outcome: Swift.Result<Result, YAMLError>?
                input.withUnsafeBufferPointer { buffer in
                    do throws(YAMLError) {
                        var reader = try YAMLEventReader(
                            parsing: buffer, count: bytes.count, file: file, limits: limits,
                            prefetchThreshold: prefetchThreshold, idleWork: idleWork)
                        outcome = .success(try body(&reader))
                    } catch {
                        outcome = .failure(error)
                    }
                }
                return try outcome!.get()
            }
        #endif
        var reader = YAMLEventReader(
            replaying: try isJSON ? documents(fromJSON: bytes, file: file) : jsonDocuments(from: bytes, file: file),
            file: file, limits: limits)
        return try body(&reader)
    }

    /// Runs `body` with a reader replaying `documents`, parsed already from `file`.
    package func readEvents<Result>(
        replaying documents: [YAMLNode], file: String, _ body: (inout YAMLEventReader) throws(YAMLError) -> Result
    ) throws(YAMLError) -> Result {
        var reader = YAMLEventReader(replaying: documents, file: file, limits: limits)
        return try body(&reader)
    }

    /// Without the `YAML` trait (no libyaml) the text must be JSON, which is YAML: the files
    /// such a build writes itself are, and anything else is an error of kind `unsupported`
    /// that says so, at the first place the text is not JSON.
    private func jsonDocuments(from bytes: [UInt8], file: String) throws(YAMLError) -> [YAMLNode] {
        var reader = JSONNodeReader(bytes: bytes, file: file, limits: limits)
        do throws(YAMLError) {
            return try reader.documents()
        } catch  where error.kind == .syntax {
            throw YAMLError.withoutYAMLSupport(error)
        }
    }

    /// Parses JSON text (RFC 8259) into the same located tree: at most one document, none
    /// when the text is only white space.
    ///
    /// Use it for `.json` files: it reads every string JSON allows (escaped surrogate pairs,
    /// U+007F–U+009F, U+FFFE), which libyaml does not.
    package func documents(fromJSON bytes: [UInt8], file: String) throws(YAMLError) -> [YAMLNode] {
        try checkSize(of: bytes, file: file)
        var reader = JSONNodeReader(bytes: bytes, file: file, limits: limits)
        return try reader.documents()
    }

    /// Refuses a file over the size limit before any of it is read, whatever its syntax.
    private func checkSize(of bytes: [UInt8], file: String) throws(YAMLError) {
        guard bytes.count <= limits.maximumFileSize else {
            throw YAMLError(
                .limitExceeded, at: SourcePosition(file: file, line: 1, column: 1),
                "file is \(bytes.count) bytes, larger than the limit of \(limits.maximumFileSize) bytes"
                    + " (raise YAMLLimits.maximumFileSize if this file is meant to be this large)")
        }
    }

    /// Parses a stream that must hold at most one document; returns `nil` for an empty stream.
    package func document(from text: String, file: String) throws(YAMLError) -> YAMLNode? {
        let all = try documents(from: text, file: file)
        return try single(all, file: file)
    }

    /// Reads and parses the file at `path`, checking its size before reading it.
    package func documents(contentsOf path: String) throws(YAMLError) -> [YAMLNode] {
        try documents(from: try readFile(at: path), file: path)
    }

    private func single(_ all: [YAMLNode], file: String) throws(YAMLError) -> YAMLNode? {
        guard all.count <= 1 else {
            throw YAMLError(.syntax, at: all[1].location, "expected a single document, found \(all.count)")
        }
        return all.first
    }

    /// Reads a whole file with POSIX calls, refusing files over the size limit before
    /// allocating for them.
    package func readFile(at path: String) throws(YAMLError) -> [UInt8] {
        try readFile(at: path, afterReading: nil)
    }

    /// ``readFile(at:)``, with `afterReading` (for tests) run between reading the bytes and
    /// checking that the file did not change meanwhile.
    func readFile(at path: String, afterReading: (() -> Void)?) throws(YAMLError) -> [UInt8] {
        let file = try CheckedFile(opening: path, limits: limits)
        defer { file.closeDescriptor() }
        var bytes = [UInt8](repeating: 0, count: file.size)
        let filled = try bytes.withUnsafeMutableBytes { file.fill($0) }.get()
        afterReading?()
        try file.checkUnchanged(afterReading: filled)
        return bytes
    }

    /// Reads a whole file as ``readFile(at:)`` does (the same checks and errors), handing it
    /// to `body` a chunk at a time instead of holding it whole: for hashing a large file
    /// without a buffer its size.
    package func streamFile(
        at path: String, chunkSize: Int = 64 << 10, _ body: (UnsafeRawBufferPointer) -> Void
    ) throws(YAMLError) {
        let file = try CheckedFile(opening: path, limits: limits)
        defer { file.closeDescriptor() }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 1)
        defer { buffer.deallocate() }
        var filled = 0
        while filled < file.size {
            let wanted = min(chunkSize, file.size - filled)
            let count = try file.fill(UnsafeMutableRawBufferPointer(rebasing: buffer[..<wanted])).get()
            body(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
            filled += count
            if count < wanted { break }  // the file ended early: checkUnchanged refuses it
        }
        try file.checkUnchanged(afterReading: filled)
    }
}

/// A regular file opened for reading, checked against the size limit before anything is
/// read, and checked again afterwards for having changed while it was read.
private struct CheckedFile {
    let path: String
    let descriptor: Int32
    let status: stat
    var size: Int { Int(status.st_size) }

    init(opening path: String, limits: YAMLLimits) throws(YAMLError) {
        self.path = path
        let start = SourcePosition(file: path, line: 0, column: 0)
        // Non-blocking, so opening a FIFO returns at once instead of waiting for a writer; it
        // is then refused like every other file that is not a regular one.
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else {
            throw YAMLError(.unreadable, at: start, "cannot open file: \(String(cString: strerror(errno)))")
        }
        var isKept = false
        defer { if !isKept { close(descriptor) } }  // every refusal below closes it
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            throw YAMLError(.unreadable, at: start, "cannot stat file: \(String(cString: strerror(errno)))")
        }
        switch status.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: throw YAMLError(.unreadable, at: start, "is a directory, not a file")
        default: throw YAMLError(.unreadable, at: start, "is not a regular file (a FIFO, socket or device)")
        }
        guard Int(status.st_size) <= limits.maximumFileSize else {
            throw YAMLError(
                .limitExceeded, at: SourcePosition(file: path, line: 1, column: 1),
                "file is \(status.st_size) bytes, larger than the limit of \(limits.maximumFileSize) bytes"
                    + " (raise YAMLLimits.maximumFileSize if this file is meant to be this large)")
        }
        isKept = true
        self.descriptor = descriptor
        self.status = status
    }

    /// Reads until `buffer` is full or the file ends; returns how many bytes came. A `Result`,
    /// so that it can run inside the untyped closures of `withUnsafeMutableBytes`.
    func fill(_ buffer: UnsafeMutableRawBufferPointer) -> Result<Int, YAMLError> {
        var filled = 0
        while filled < buffer.count {
            let count = read(descriptor, buffer.baseAddress! + filled, buffer.count - filled)
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else {
                return .failure(
                    YAMLError(
                        .unreadable, at: SourcePosition(file: path, line: 0, column: 0),
                        "cannot read file: \(String(cString: strerror(errno)))"))
            }
            if count == 0 { break }
            filled += count
        }
        return .success(filled)
    }

    /// Refuses a file written in place while it was read, which would give a mix of old and
    /// new bytes that may well parse (the writer's next change is read again).
    func checkUnchanged(afterReading filled: Int) throws(YAMLError) {
        var after = stat()
        guard fstat(descriptor, &after) == 0, filled == size, Int(after.st_size) == size,
            modificationTime(after) == modificationTime(status)
        else {
            throw YAMLError(
                .unreadable, at: SourcePosition(file: path, line: 0, column: 0),
                "the file changed while it was being read; write it to a temporary file and rename it over this one")
        }
    }

    func closeDescriptor() {
        close(descriptor)
    }
}

/// A file's modification time as seconds and nanoseconds.
private func modificationTime(_ status: stat) -> [Int] {
    #if canImport(Darwin)
        [Int(status.st_mtimespec.tv_sec), Int(status.st_mtimespec.tv_nsec)]
    #else
        [Int(status.st_mtim.tv_sec), Int(status.st_mtim.tv_nsec)]
    #endif
}

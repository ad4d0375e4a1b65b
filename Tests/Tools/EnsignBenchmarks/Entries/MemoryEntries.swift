import Ensign

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// (h) Resident memory of a context with 10,000 flags, measured in a fresh child process (this
/// one's heap is full of other entries' leftovers): VmRSS before and after loading, the
/// context kept alive.
enum MemoryEntries {
    /// The entries' ids, for `--filter`.
    static let names = ["resident", "trimmed", "cold", "heap in use"]

    static func group() -> BenchmarkGroup {
        BenchmarkGroup(name: "memory, 10,000 flags", kind: .probe(names: names, run: run))
    }

    private static func run(_ settings: RunSettings) throws -> [EntryResult] {
        var samples: [ProbeSample] = []
        #if os(Linux)
            let directory = try writeDefinitionsDirectory()
            defer { removeDefinitionsDirectory(directory) }
            for _ in 0..<(settings.isQuick ? 1 : 3) { samples.append(try runProbe(directory: directory)) }
        #endif
        func row(_ id: String, _ name: String, target: Target? = nil, note: String, _ figure: (ProbeSample) -> Int?)
            -> EntryResult
        {
            EntryResult(
                group: "memory, 10,000 flags", id: id, name: name, unit: .bytes, iterations: 1,
                samples: samples.compactMap(figure).map(Double.init), target: target,
                note: samples.isEmpty ? "needs /proc/self/status (Linux)" : note)
        }
        return [
            row(
                "resident", "resident: AppContext with 10,000 flags",
                target: .memory(atMostBytes: 16_000_000, aim: 8_000_000),
                note: "VmRSS after loading the 10,000-flag file minus before, in a fresh process whose code paths"
                    + " were warmed by a 1-flag context; heap not trimmed after the load"
            ) { $0.loaded - $0.warm },
            row(
                "trimmed", "resident after malloc_trim",
                note: "the same after malloc_trim returned the allocator's free pages (the load's garbage)"
            ) { $0.trimmed - $0.warm },
            row(
                "cold", "resident incl. first-load code pages",
                note: "VmRSS after the load minus a cold process's: adds the library code the first load pages in"
            ) { $0.loaded - $0.cold },
            row(
                "heap in use", "heap in use: AppContext with 10,000 flags",
                note: "mallinfo2 bytes in use with the context alive minus before the load (no fragmentation)"
            ) { sample in sample.heapAfter.flatMap { after in sample.heapBefore.map { after - $0 } } },
        ]
    }

    /// What one child process measured, in bytes.
    struct ProbeSample {
        var cold: Int
        var warm: Int
        var loaded: Int
        var trimmed: Int
        var heapBefore: Int?
        var heapAfter: Int?

        var line: String {
            "cold=\(cold) warm=\(warm) loaded=\(loaded) trimmed=\(trimmed) heapBefore=\(heapBefore ?? -1)"
                + " heapAfter=\(heapAfter ?? -1)"
        }

        init(cold: Int, warm: Int, loaded: Int, trimmed: Int, heapBefore: Int?, heapAfter: Int?) {
            (self.cold, self.warm, self.loaded, self.trimmed) = (cold, warm, loaded, trimmed)
            (self.heapBefore, self.heapAfter) = (heapBefore, heapAfter)
        }

        init?(line: String) {
            var fields: [String: Int] = [:]
            for field in line.split(separator: " ") {
                let parts = field.split(separator: "=", maxSplits: 1)
                guard parts.count == 2, let value = Int(parts[1]) else { return nil }
                fields[String(parts[0])] = value
            }
            guard let cold = fields["cold"], let warm = fields["warm"], let loaded = fields["loaded"],
                let trimmed = fields["trimmed"]
            else { return nil }
            self.init(
                cold: cold, warm: warm, loaded: loaded, trimmed: trimmed,
                heapBefore: fields["heapBefore"].flatMap { $0 < 0 ? nil : $0 },
                heapAfter: fields["heapAfter"].flatMap { $0 < 0 ? nil : $0 })
        }
    }

    // MARK: The child process

    /// Runs in the child (`--memory-probe DIR`): measures, loads, measures, and prints one line.
    static func probe(directory: String) throws -> String {
        HeapStatistics.trim()
        let cold = try residentBytes()
        let warmUp = try AppContext(definitions: "version: 1\nflags:\n  warm.up: { default: true }\n")
        blackHole(warmUp[FlagKey("warm.up", default: false)])
        HeapStatistics.trim()
        let warm = try residentBytes()
        let heapBefore = HeapStatistics.bytesInUse
        let context = try AppContext(
            configuration: AppContextConfiguration(definitionsDirectory: directory, environment: "production"))
        let loaded = try residentBytes()
        HeapStatistics.trim()
        let trimmed = try residentBytes()
        let heapAfter = HeapStatistics.bytesInUse
        guard context.definitions.count == LoadEntries.flagCount else {
            throw BenchmarkFailure("the probe loaded \(context.definitions.count) flags")
        }
        return withExtendedLifetime((context, warmUp)) {
            ProbeSample(
                cold: cold, warm: warm, loaded: loaded, trimmed: trimmed, heapBefore: heapBefore, heapAfter: heapAfter
            ).line
        }
    }

    /// VmRSS from /proc/self/status, in bytes.
    static func residentBytes() throws -> Int {
        guard let file = fopen("/proc/self/status", "r") else {
            throw BenchmarkFailure("cannot read /proc/self/status")
        }
        defer { fclose(file) }
        var buffer = [CChar](repeating: 0, count: 256)
        while fgets(&buffer, Int32(buffer.count), file) != nil {
            let line = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            guard line.hasPrefix("VmRSS:") else { continue }
            let digits = line.dropFirst("VmRSS:".count).filter(\.isNumber)
            guard let kilobytes = Int(digits) else { break }
            return kilobytes * 1024
        }
        throw BenchmarkFailure("no VmRSS line in /proc/self/status")
    }

    // MARK: The parent process

    #if os(Linux)
        private static func writeDefinitionsDirectory() throws -> String {
            let directory = try TemporaryFiles.directory()
            try TemporaryFiles.write(
                directory + "/catalog.yaml", GeneratedDefinitions.manyFlags(count: LoadEntries.flagCount))
            return directory
        }

        private static func removeDefinitionsDirectory(_ directory: String) {
            TemporaryFiles.remove(directory)
        }

        /// Runs this executable again with `--memory-probe` and reads its one line.
        private static func runProbe(directory: String) throws -> ProbeSample {
            let executable = try BuiltTool.currentExecutable()
            let command = "'\(executable)' --memory-probe '\(directory)'"
            guard let pipe = popen(command, "r") else { throw BenchmarkFailure("cannot run \(command)") }
            var output = ""
            var buffer = [CChar](repeating: 0, count: 1024)
            while fgets(&buffer, Int32(buffer.count), pipe) != nil {
                output += String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            }
            let status = pclose(pipe)
            guard status == 0, let sample = ProbeSample(line: output.trimmingNewlines) else {
                throw BenchmarkFailure("the memory probe failed (status \(status)): \(output)")
            }
            return sample
        }
    #endif
}

extension String {
    fileprivate var trimmingNewlines: String {
        var text = self
        while text.last?.isNewline == true { text.removeLast() }
        return text
    }
}

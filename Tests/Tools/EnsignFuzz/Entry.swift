#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

#if ENSIGN_FUZZING
    // Built by scripts/fuzz with -sanitize=fuzzer,address. SwiftPM names an executable's
    // entry point EnsignFuzz_main, so that entry hands control to libFuzzer's driver, which
    // calls fuzzOneInput for every input. The target is chosen with $ENSIGN_FUZZ_TARGET.
    /// Runs one fuzzer input through the selected target.
    @_cdecl("LLVMFuzzerTestOneInput")
    public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
        let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: count)) } ?? []
        FuzzTargets.run(FuzzSupport.targetName(), bytes)
        return 0
    }

    typealias FuzzCallback = @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32

    @_silgen_name("LLVMFuzzerRunDriver")
    func runFuzzerDriver(
        _ argc: UnsafeMutablePointer<Int32>,
        _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
        _ callback: FuzzCallback
    ) -> Int32

    /// The executable's entry point under fuzzing: libFuzzer's driver.
    @_cdecl("EnsignFuzz_main")
    public func fuzzMain(
        _ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
    ) -> Int32 {
        var count = argc
        var arguments = argv
        return runFuzzerDriver(&count, &arguments, fuzzOneInput)
    }
#else
    // A normal build replays files instead: `EnsignFuzz TARGET FILE…` runs each file through
    // the target, which is how a crash found by the fuzzer is reproduced and kept as a test.
    @main
    enum FuzzReplay {
        static func main() {
            let arguments = Array(CommandLine.arguments.dropFirst())
            guard let target = arguments.first, FuzzTargets.names.contains(target) else {
                print("usage: EnsignFuzz \(FuzzTargets.names.joined(separator: "|")) FILE…")
                exit(2)
            }
            for path in arguments.dropFirst() {
                FuzzTargets.run(target, FuzzSupport.readFile(path))
            }
            print("replayed \(arguments.count - 1) input(s) through \(target) without a crash")
        }
    }
#endif

/// What both entry points need.
enum FuzzSupport {
    static func targetName() -> String {
        getenv("ENSIGN_FUZZ_TARGET").map { String(cString: $0) } ?? "yaml"
    }

    static func readFile(_ path: String) -> [UInt8] {
        guard let file = fopen(path, "rb") else { return [] }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = fread(&buffer, 1, buffer.count, file)
            if count <= 0 { break }
            bytes += buffer[..<count]
        }
        return bytes
    }
}

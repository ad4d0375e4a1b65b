import EnsignSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where a command writes: standard output and error, with colour when it goes to a terminal
/// and `NO_COLOR` is not set (https://no-color.org).
struct Console {
    /// Whether standard output gets ANSI colours.
    var usesColor: Bool
    private var output: [UInt8] = []
    private var errors: [UInt8] = []
    /// What commands handed over with ``keepUntilExit(_:)``.
    private var keptUntilExit: [any Sendable] = []

    init(usesColor: Bool = Console.detectColor()) {
        self.usesColor = usesColor
    }

    static func detectColor() -> Bool {
        guard ProcessEnvironment.value("NO_COLOR") == nil else { return false }
        if ProcessEnvironment.value("TERM") == "dumb" { return false }
        return isatty(1) == 1
    }

    /// Keeps `value` as long as the console: when the command runs as the whole process
    /// (``CommandLineTool/runAsProcess(_:)``) that is until exit, so a large result is never
    /// freed piece by piece just before the process ends. In a test it is freed with the console.
    mutating func keepUntilExit(_ value: any Sendable) {
        keptUntilExit.append(value)
    }

    /// Writes a line (or, with another `terminator`, any text) to standard output.
    mutating func print(_ line: String = "", terminator: String = "\n") {
        output.append(contentsOf: line.utf8)
        output.append(contentsOf: terminator.utf8)
        if output.count > 1 << 16 { flush() }
    }

    /// Writes text to standard output as it is, without a newline.
    mutating func write(_ text: String) {
        output.append(contentsOf: text.utf8)
    }

    /// Writes a line to standard error.
    mutating func printError(_ line: String) {
        errors.append(contentsOf: line.utf8)
        errors.append(0x0A)
    }

    /// Writes everything buffered so far.
    mutating func flush() {
        Self.writeAll(&output, to: 1)
        Self.writeAll(&errors, to: 2)
    }

    private static func writeAll(_ bytes: inout [UInt8], to descriptor: Int32) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { systemWrite(descriptor, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0, errno == EINTR { continue }
            if written <= 0 { break }
            offset += written
        }
        bytes.removeAll(keepingCapacity: true)
    }

    /// `text` in the given style when colour is on.
    func styled(_ text: String, _ style: TextStyle) -> String {
        usesColor ? "\u{1B}[\(style.rawValue)m\(text)\u{1B}[0m" : text
    }
}

/// ANSI styles used in output.
enum TextStyle: String {
    case bold = "1"
    case dim = "2"
    case red = "1;31"
    case green = "32"
    case yellow = "1;33"
    case cyan = "36"
}

/// The POSIX `write`, under a name that does not clash with ``Console/write(_:)``.
private func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, buffer, count)
}

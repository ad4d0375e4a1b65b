#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The terminal in raw mode on the alternate screen, restored when the session ends (also
/// when the menu exits through an error). Ctrl-C arrives as a key, so quitting is always clean.
final class TerminalSession {
    private var original = termios()
    private let input: Int32 = 0
    private(set) var isActive = false

    /// Enters raw mode; fails when standard input is not a terminal.
    init() throws(UsageError) {
        guard isatty(input) == 1, isatty(1) == 1 else {
            throw UsageError("menu needs an interactive terminal (stdin and stdout must be a TTY)")
        }
        tcgetattr(input, &original)
        var raw = original
        raw.c_lflag &= ~tcflag_t(ECHO | ICANON | ISIG | IEXTEN)
        raw.c_iflag &= ~tcflag_t(IXON | ICRNL)
        withUnsafeMutableBytes(of: &raw.c_cc) { controlCharacters in
            controlCharacters[Int(VMIN)] = 1  // a read returns as soon as a byte is there
            controlCharacters[Int(VTIME)] = 0  // no inter-byte timer: the poll loop waits
        }
        tcsetattr(input, TCSAFLUSH, &raw)
        isActive = true
        emit("\u{1B}[?1049h\u{1B}[?25l")  // alternate screen, hide cursor
    }

    deinit { end() }

    /// Leaves raw mode and the alternate screen.
    func end() {
        guard isActive else { return }
        isActive = false
        emit("\u{1B}[?25h\u{1B}[?1049l")
        tcsetattr(input, TCSAFLUSH, &original)
    }

    /// The window size (columns, rows), at least 80×24 when it cannot be read.
    var size: (columns: Int, rows: Int) {
        var window = winsize()
        guard ioctl(1, UInt(TIOCGWINSZ), &window) == 0, window.ws_col > 0, window.ws_row > 0 else { return (80, 24) }
        return (Int(window.ws_col), Int(window.ws_row))
    }

    /// Replaces the screen's content with `lines`.
    func draw(_ lines: [String]) {
        var frame = "\u{1B}[H"
        for (index, line) in lines.enumerated() {
            frame += line + "\u{1B}[K" + (index == lines.count - 1 ? "" : "\r\n")
        }
        emit(frame + "\u{1B}[J")
    }

    /// Waits up to `timeout` milliseconds for input and decodes the keys that arrived.
    func readKeys(timeout: Int32) -> [MenuKey] {
        var descriptor = pollfd(fd: input, events: Int16(POLLIN), revents: 0)
        guard poll(&descriptor, 1, timeout) > 0 else { return [] }
        var buffer = [UInt8](repeating: 0, count: 256)
        let count = read(input, &buffer, buffer.count)
        guard count > 0 else { return [.interrupt] }  // the terminal went away
        return KeyDecoder.decode(Array(buffer[..<count]))
    }

    private func emit(_ text: String) {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = write(1, &bytes[offset], bytes.count - offset)
            if written <= 0 { break }
            offset += written
        }
    }
}

/// Turns terminal bytes into keys: arrows and page keys in their common escape forms, UTF-8 text.
enum KeyDecoder {
    static func decode(_ bytes: [UInt8]) -> [MenuKey] {
        var keys: [MenuKey] = []
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0x1B, index + 2 < bytes.count,
                bytes[index + 1] == UInt8(ascii: "[") || bytes[index + 1] == UInt8(ascii: "O")
            {
                let (key, length) = escapeSequence(Array(bytes[(index + 2)...]))
                if let key { keys.append(key) }
                index += 2 + length
                continue
            }
            switch byte {
            case 0x1B: keys.append(.escape)
            case 0x03: keys.append(.interrupt)
            case 0x0D, 0x0A: keys.append(.enter)
            case 0x7F, 0x08: keys.append(.backspace)
            default:
                let length = byte < 0x80 ? 1 : byte < 0xE0 ? 2 : byte < 0xF0 ? 3 : 4
                let end = min(bytes.count, index + length)
                if let text = String(validating: bytes[index..<end], as: UTF8.self), let character = text.first {
                    keys.append(.character(character))
                }
                index = end
                continue
            }
            index += 1
        }
        return keys
    }

    /// The key for the bytes after `ESC [`, and how many bytes it used.
    private static func escapeSequence(_ rest: [UInt8]) -> (MenuKey?, Int) {
        switch rest.first {
        case UInt8(ascii: "A"): return (.up, 1)
        case UInt8(ascii: "B"): return (.down, 1)
        case UInt8(ascii: "H"): return (.home, 1)
        case UInt8(ascii: "F"): return (.end, 1)
        case UInt8(ascii: "5") where rest.count > 1: return (.pageUp, 2)
        case UInt8(ascii: "6") where rest.count > 1: return (.pageDown, 2)
        default:
            // Skip an unknown sequence up to its final byte.
            let length = (rest.firstIndex { $0 >= 0x40 && $0 <= 0x7E } ?? (rest.count - 1)) + 1
            return (nil, length)
        }
    }
}

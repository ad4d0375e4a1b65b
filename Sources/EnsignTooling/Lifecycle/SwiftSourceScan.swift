import Ensign
import EnsignCodeGeneration

/// What `ensign debt` reads from an app's Swift sources: every identifier, every plain string
/// literal, and the literals given to Ensign's by-name APIs, with where each of those is.
///
/// A small tokenizer rather than a parser: it skips comments (`//`, nested `/* */`) and
/// multi-line strings (`"""`), keeps single-line literals (raw `#"…"#` too) without
/// interpolation, and recognises a key named in source by what comes just before the
/// literal:
///
/// - a `forKeyNamed:` or `keyNamed:` label (`value(forKeyNamed: "wallet.showBalance")`);
/// - a key declaration, `FlagKey("…"` or `UserPreferenceKey("…"`, with or without generic
///   arguments (`FlagKey<Bool>("…"`).
///
/// Files that `ensign generate` wrote are skipped: they declare every key, so they would
/// make every key look used.
package struct SwiftSourceScan: Sendable {
    /// One Swift file: its path (for diagnostics) and its text.
    package struct File: Sendable {
        package var path: String
        package var text: String

        /// Creates a file already read.
        package init(path: String, text: String) {
            self.path = path
            self.text = text
        }
    }

    /// A string literal given to a by-name API.
    package struct KeyLiteral: Sendable, Hashable {
        /// The literal's text: a full key, or a key relative to a scope.
        package var name: String
        /// Where the literal starts (its opening quote).
        package var location: SourcePosition
    }

    /// Every identifier, backticks removed.
    package private(set) var identifiers: Set<String> = []
    /// The text of every plain string literal.
    package private(set) var stringLiterals: Set<String> = []
    /// The literals given to by-name APIs, in file order.
    package private(set) var keyLiterals: [KeyLiteral] = []
    /// How many files were read (generated key files not counted).
    package private(set) var fileCount = 0

    /// Scans `files`.
    package init(_ files: [File]) {
        for file in files where GeneratedKeysHeader(parsing: file.text) == nil {
            fileCount += 1
            var tokenizer = Tokenizer(file: file)
            while let token = tokenizer.next() { record(token, recent: tokenizer.recent) }
        }
    }

    private mutating func record(_ token: Token, recent: [Token]) {
        switch token {
        case .identifier(let name):
            identifiers.insert(name)
        case .string(let text, let location):
            guard let text else { return }
            stringLiterals.insert(text)
            if Self.isByNameUse(recent.dropLast()) { keyLiterals.append(KeyLiteral(name: text, location: location)) }
        case .punctuation:
            break
        }
    }

    /// Whether the tokens before a literal make it a key: `forKeyNamed:`, `keyNamed:`,
    /// `FlagKey(` or `FlagKey<…>(` (and `UserPreferenceKey`).
    static func isByNameUse(_ before: ArraySlice<Token>) -> Bool {
        var tokens = before
        guard let last = tokens.popLast() else { return false }
        if last == .punctuation(":") {
            guard case .identifier(let label)? = tokens.last else { return false }
            return label == "forKeyNamed" || label == "keyNamed"
        }
        guard last == .punctuation("(") else { return false }
        if tokens.last == .punctuation(">") {
            // Generic arguments: back to the `<` that opens them (`<Bool>`, `<Set<String>>`).
            var depth = 0
            while let token = tokens.popLast() {
                if token == .punctuation(">") { depth += 1 }
                if token == .punctuation("<") { depth -= 1 }
                if depth == 0 { break }
            }
        }
        guard case .identifier(let type)? = tokens.last else { return false }
        return type == "FlagKey" || type == "UserPreferenceKey"
    }

    /// A token the scan looks at.
    enum Token: Equatable {
        case identifier(String)
        /// A string literal's text, `nil` when it interpolates; and where it starts.
        case string(String?, SourcePosition)
        case punctuation(Character)
    }

    /// Splits a file into tokens, keeping the last few for ``isByNameUse(_:)``.
    struct Tokenizer {
        private let path: String
        private let characters: [Character]
        private var index = 0
        private var line = 1
        private var column = 1
        /// The latest tokens, newest last; enough to see `FlagKey<[String: Int]>(` before a literal.
        private(set) var recent: [Token] = []
        private static let remembered = 12

        init(file: File) {
            path = file.path
            characters = Array(file.text)
        }

        mutating func next() -> Token? {
            while let character = peek() {
                if character.isWhitespace {
                    advance()
                } else if character == "/", peek(1) == "/" {
                    while let next = peek(), !next.isNewline { advance() }
                } else if character == "/", peek(1) == "*" {
                    skipBlockComment()
                } else if character == "#" || character == "\"" {
                    guard let token = stringLiteral() else { continue }
                    return remember(token)
                } else if character == "_" || character.isLetter || character == "`" {
                    return remember(.identifier(identifier()))
                } else if character.isNumber {
                    while let next = peek(), next.isNumber || next.isLetter || next == "_" || next == "." { advance() }
                } else {
                    advance()
                    return remember(.punctuation(character))
                }
            }
            return nil
        }

        private mutating func remember(_ token: Token) -> Token {
            recent.append(token)
            if recent.count > Self.remembered { recent.removeFirst() }
            return token
        }

        private func peek(_ offset: Int = 0) -> Character? {
            index + offset < characters.count ? characters[index + offset] : nil
        }

        private mutating func advance() {
            if characters[index].isNewline {
                line += 1
                column = 1
            } else {
                column += 1
            }
            index += 1
        }

        private mutating func skipBlockComment() {
            var depth = 0
            while peek() != nil {
                if peek() == "/", peek(1) == "*" {
                    depth += 1
                    advance()
                } else if peek() == "*", peek(1) == "/" {
                    depth -= 1
                    advance()
                    if depth == 0 {
                        advance()
                        return
                    }
                }
                advance()
            }
        }

        private mutating func identifier() -> String {
            let quoted = peek() == "`"
            if quoted { advance() }
            var name = ""
            while let next = peek(), next == "_" || next.isLetter || next.isNumber {
                name.append(next)
                advance()
            }
            if quoted, peek() == "`" { advance() }
            return name
        }

        /// A string literal starting here (`"`, `#"` or `"""`), or `nil` for a lone `#`
        /// (`#if`, `#selector`) or a multi-line string, which are skipped.
        private mutating func stringLiteral() -> Token? {
            let start = SourcePosition(file: path, line: line, column: column)
            var hashes = 0
            while peek(hashes) == "#" { hashes += 1 }
            guard peek(hashes) == "\"" else {
                advance()  // `#if` and friends: the word after it reads as an identifier
                return nil
            }
            for _ in 0...hashes { advance() }
            if peek() == "\"", peek(1) == "\"" {
                advance()
                advance()
                skipMultilineString(hashes: hashes)
                return nil
            }
            let terminator = "\"" + String(repeating: "#", count: hashes)
            var text = ""
            var interpolates = false
            while let next = peek(), !next.isNewline {
                if matches(terminator) {
                    for _ in terminator { advance() }
                    return .string(interpolates ? nil : text, start)
                }
                if next == "\\", matches("\\" + String(repeating: "#", count: hashes)) {
                    for _ in 0...hashes { advance() }
                    if peek() == "(" {
                        interpolates = true
                        skipInterpolation()
                    } else if let escaped = peek() {
                        text.append(escaped == "n" ? "\n" : escaped == "t" ? "\t" : escaped)
                        advance()
                    }
                    continue
                }
                text.append(next)
                advance()
            }
            return .string(nil, start)  // unterminated: not a literal to trust
        }

        private func matches(_ text: String) -> Bool {
            for (offset, character) in text.enumerated() where peek(offset) != character { return false }
            return true
        }

        /// Skips `(…)` after a backslash, nested parentheses included.
        private mutating func skipInterpolation() {
            var depth = 0
            while let next = peek(), !next.isNewline {
                advance()
                if next == "(" { depth += 1 }
                if next == ")" {
                    depth -= 1
                    if depth == 0 { return }
                }
            }
        }

        private mutating func skipMultilineString(hashes: Int) {
            let terminator = "\"\"\"" + String(repeating: "#", count: hashes)
            while peek() != nil {
                if peek() == "\\", peek(1) == "\"" {
                    advance()
                } else if matches(terminator) {
                    for _ in terminator { advance() }
                    return
                }
                advance()
            }
        }
    }
}

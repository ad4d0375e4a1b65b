// libyaml's part: compiled with the YAML trait only (see Package.swift).
#if YAML
    import CYAML

    /// Rewrites libyaml's parser errors in Ensign's `path:line:column` form, with a hint for the
    /// mistakes people make most (tabs, unterminated quotes, bad encoding).
    enum LibYAMLDiagnostics {
        static func error(
            from parser: yaml_parser_t, bytes: UnsafeBufferPointer<UInt8>, count: Int, file: String
        ) -> YAMLError {
            let problem = parser.problem.map { String(cString: $0) } ?? "unknown libyaml error"
            if parser.error == YAML_READER_ERROR {
                // Reader errors (encoding) carry a byte offset, not a mark.
                var offset = Int(parser.problem_offset)
                if problem.contains("trailing") || problem.contains("incomplete") {
                    // Point at the character the bad octet belongs to, not at the octet.
                    var back = offset
                    while back > 0, offset - back < 4, bytes[back] < 0xC0 { back -= 1 }
                    if bytes[back] >= 0xC0 { offset = back }
                }
                let (line, column) = lineAndColumn(ofOffset: offset, in: bytes, count: count)
                var message = problem
                if parser.problem_value >= 0, problem.contains("octet") || problem.contains("character") {
                    let hex = String(UInt32(bitPattern: parser.problem_value), radix: 16)
                    message += " (byte 0x\(hex)); the file must be UTF-8"
                }
                return YAMLError(.syntax, at: SourcePosition(file: file, line: line, column: column), message)
            }
            let mark = parser.problem_mark
            let at = SourcePosition(file: file, line: Int(mark.line) + 1, column: Int(mark.column) + 1)
            var message = problem
            if let context = parser.context.map({ String(cString: $0) }) {
                let contextMark = parser.context_mark
                message += " \(context) that started at line \(contextMark.line + 1), column \(contextMark.column + 1)"
                if context.contains("quoted scalar"), problem.contains("end of stream") {
                    message = "unterminated quoted string: " + message
                }
            }
            if character(atLine: at.line, column: at.column, in: bytes, count: count) == UInt8(ascii: "\t") {
                message += "; YAML does not allow tab characters for indentation, use spaces"
            }
            return YAMLError(.syntax, at: at, message)
        }

        /// 1-based line and column (in characters) of a byte offset.
        static func lineAndColumn(ofOffset offset: Int, in bytes: UnsafeBufferPointer<UInt8>, count: Int) -> (Int, Int)
        {
            var line = 1
            var column = 1
            for index in 0..<min(offset, count) {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\n") {
                    line += 1
                    column = 1
                } else if byte & 0xC0 != 0x80 {
                    column += 1  // count characters, not continuation bytes
                }
            }
            return (line, column)
        }

        /// The first byte of the character at a 1-based line and column, if there is one.
        static func character(atLine line: Int, column: Int, in bytes: UnsafeBufferPointer<UInt8>, count: Int) -> UInt8?
        {
            var currentLine = 1
            var currentColumn = 1
            for index in 0..<count {
                let byte = bytes[index]
                if currentLine == line, currentColumn == column, byte & 0xC0 != 0x80 { return byte }
                if byte == UInt8(ascii: "\n") {
                    if currentLine == line { return nil }
                    currentLine += 1
                    currentColumn = 1
                } else if byte & 0xC0 != 0x80, currentLine == line {
                    currentColumn += 1
                }
            }
            return nil
        }
    }
#endif

import EnsignTestSupport
import EnsignYAML
import Testing

@Suite("Hostile and malformed input becomes errors")
struct HostileInputTests {
    let parser = YAMLParser()

    @Test("A billion-laughs alias bomb is stopped by the alias budget")
    func aliasBomb() {
        var text = "a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n"
        for level in 1...9 {
            let previous = Array(repeating: "*a\(level - 1)", count: 10).joined(separator: ", ")
            text += "a\(level): &a\(level) [\(previous)]\n"
        }
        let error = parser.expectedError(reading: text, file: "bomb.yaml")
        #expect(error?.kind == .limitExceeded)
        #expect(error?.message.contains("alias") == true)
    }

    @Test("Nesting deeper than the limit is an error, not a stack overflow")
    func deepNesting() {
        let text = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        let error = parser.expectedError(reading: text, file: "deep.yaml")
        #expect(error?.kind == .limitExceeded)
        #expect(error?.location == SourcePosition(file: "deep.yaml", line: 1, column: 129))
    }

    @Test("A file over the size limit is refused before parsing; a raised limit accepts it")
    func tenMegabytes() throws {
        let line = "key: " + String(repeating: "x", count: 95) + "\n"
        let text = String(repeating: line, count: 100_000)  // 10 MB of one repeated key
        let error = parser.expectedError(reading: text, file: "big.yaml")
        #expect(error?.kind == .limitExceeded)
        #expect(error?.message.contains("maximumFileSize") == true)

        var limits = YAMLLimits()
        limits.maximumFileSize = 16 << 20
        let small = String(repeating: "- " + String(repeating: "y", count: 98) + "\n", count: 100_000)
        let documents = try YAMLParser(limits: limits).documents(from: small, file: "big.yaml")
        #expect(documents.first?.sequenceElements?.count == 100_000)
    }

    @Test("Invalid UTF-8 is reported at its line and column")
    func invalidUTF8() {
        let bytes: [UInt8] = Array("a: ok\nb: caf".utf8) + [0xC3, 0x28] + Array("\n".utf8)
        let error = #expect(throws: YAMLError.self) { try parser.documents(from: bytes, file: "bad.yaml") }
        #expect(error?.kind == .syntax)
        #expect(error?.location.line == 2)
        #expect(error?.location.column == 7)
        #expect(error?.message.contains("UTF-8") == true)
    }

    @Test("A tab in indentation gets a hint")
    func tabIndentation() {
        let error = parser.expectedError(reading: "flags:\n\tpageSize: 1\n", file: "tab.yaml")
        #expect(error?.location.line == 2)
        #expect(error?.message.contains("tab") == true)
    }

    @Test("An unterminated quote names where the string started")
    func unterminatedQuote() {
        let error = parser.expectedError(reading: "a: 1\nb: \"never closed\nc: 2\n", file: "q.yaml")
        #expect(error?.message.hasPrefix("unterminated quoted string") == true)
        #expect(error?.message.contains("started at line 2, column 4") == true)
    }

    @Test(
        "Garbage bytes never crash the parser: an error naming the file and position, or documents", arguments: 0..<20)
    func randomBytes(seed: Int) {
        var generator = SplitMix64(seed: UInt64(seed))
        let bytes = (0..<512).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
        do {
            let documents = try parser.documents(from: bytes, file: "garbage.yaml")
            #expect(documents.allSatisfy { $0.location.description.hasPrefix("garbage.yaml:") })
        } catch {
            #expect("\(error)".contains("garbage.yaml"), "\(error)")
        }
    }
}

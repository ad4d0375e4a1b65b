import EnsignSupport
import Testing

@Suite("Backslash escaping")
struct BackslashEscapingTests {
    @Test("Every syntax escapes backslashes, quotes and line feeds, also inside a CRLF pair")
    func commonEscapes() {
        for syntax in [BackslashEscaping.minimal, .json, .swift] {
            #expect("a\\b\"c\nd".backslashEscaped(syntax) == #"a\\b\"c\nd"#)
            #expect("\r\n".backslashEscaped(syntax).hasSuffix(#"\n"#))
        }
    }

    @Test("The minimal syntax leaves every other character as it is")
    func minimalLeavesTheRest() {
        #expect("\t\r\u{0}é\u{202E}".backslashEscaped(.minimal) == "\t\r\u{0}é\u{202E}")
    }

    @Test("JSON names backspace and form feed and writes other controls as four hex digits")
    func json() {
        #expect("\u{8}\u{C}\t\r".backslashQuoted(.json) == #""\b\f\t\r""#)
        #expect("\u{1}\u{7F}\u{FEFF}\u{FFFF}é".backslashEscaped(.json) == #"\u0001\u007F\uFEFF\uFFFFé"#)
        #expect("\u{202E}".backslashEscaped(.json) == "\u{202E}")
    }

    @Test("Swift writes NUL as \\0 and bidirectional controls as \\u{…}")
    func swift() {
        #expect("\0\u{1}".backslashQuoted(.swift) == #""\0\u{1}""#)
        #expect("\u{202E}\u{2028}é🚀".backslashEscaped(.swift) == #"\u{202E}\u{2028}é🚀"#)
        #expect(BackslashEscaping.swift.escapesNumerically("\u{2066}"))
        #expect(!BackslashEscaping.json.escapesNumerically("\u{2066}"))
    }
}

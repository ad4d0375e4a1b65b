import EnsignYAML
import Testing

@testable import Ensign

@Suite("Compact resolved entries and positions")
struct CompactEntryTests {
    @Test("A resolved entry takes at most 56 bytes in a snapshot (it took 104)")
    func entrySize() {
        #expect(MemoryLayout<ResolvedEntry>.stride <= 56)
        #expect(MemoryLayout<CompactSourcePosition>.size == 12)
    }

    @Test(
        "An entry gives back the source it was made with",
        arguments: [
            ValueSource(
                layer: .environment,
                location: SourcePosition(file: "flags/environments/staging.yaml", line: 2, column: 27)),
            ValueSource(layer: .definition, location: .unknown("<values>")),
            ValueSource(layer: .codeDefault),
            ValueSource(
                layer: .override, location: SourcePosition(file: "overrides.yaml", line: 4, column: 3), actor: "cli",
                time: WallClockTime(secondsSince1970: 1_800_000_000)),
            ValueSource(layer: .scopeOverride, actor: "payments"),
            ValueSource(layer: .deployment, location: SourcePosition(file: "", line: 0, column: 0)),
            ValueSource(layer: .deployment, location: SourcePosition(file: "odd.yaml", line: -3, column: 1 << 40)),
        ])
    func sourceRoundTrip(source: ValueSource) {
        let entry = ResolvedEntry(
            value: .int(1), variant: "one", reason: .staticValue, errorCode: nil, errorMessage: nil, source: source)
        #expect(entry.source == source)
        #expect(entry.layer == source.layer)
        #expect(entry.errorMessage == nil)
    }

    @Test("An error message set after the fact is kept with the rest of the source")
    func errorMessage() {
        let source = ValueSource(layer: .override, actor: "code", time: WallClockTime(secondsSince1970: 12))
        var entry = ResolvedEntry(
            value: nil, variant: nil, reason: .error, errorCode: .flagNotFound, errorMessage: "first", source: source)
        entry.errorMessage = "second"
        #expect(entry.errorMessage == "second")
        #expect(entry.source == source)
        #expect(
            entry
                != ResolvedEntry(
                    value: nil, variant: nil, reason: .error, errorCode: .flagNotFound, errorMessage: "first",
                    source: source))
    }

    @Test("Entries from the same file at different positions differ; at the same position they are equal")
    func equality() {
        func entry(line: Int) -> ResolvedEntry {
            ResolvedEntry(
                value: true, variant: nil, reason: .staticValue, errorCode: nil, errorMessage: nil,
                source: ValueSource(layer: .definition, location: SourcePosition(file: "a.yaml", line: line, column: 1))
            )
        }
        #expect(entry(line: 3) == entry(line: 3))
        #expect(entry(line: 3) != entry(line: 4))
    }

    @Test("File names are stored once: two positions in one file share its number")
    func sharedFileNames() {
        let first = CompactSourcePosition(SourcePosition(file: "flags/compact-entry-test.yaml", line: 1, column: 2))
        let second = CompactSourcePosition(
            SourcePosition(file: "flags/other-compact-entry-test.yaml", line: 1, column: 2))
        let again = CompactSourcePosition(SourcePosition(file: "flags/compact-entry-test.yaml", line: 9, column: 9))
        #expect(first.file == again.file)
        #expect(first.file != second.file)
        #expect(again.sourcePosition == SourcePosition(file: "flags/compact-entry-test.yaml", line: 9, column: 9))
    }
}

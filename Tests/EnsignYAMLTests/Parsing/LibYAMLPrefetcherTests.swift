import EnsignSupport
import EnsignTestSupport
import EnsignTestTraits
import Foundation
import Synchronization
import Testing

@testable import EnsignYAML

/// Parsing ahead on a second thread must be invisible: the same events, trees, positions and
/// errors as parsing on the reader's thread, whatever the input, wherever the reader stops.
@Suite("Parsing ahead on a second thread")
struct LibYAMLPrefetcherTests {
    /// A parser that always parses on the reader's thread, and one that always parses ahead.
    static let inline = YAMLParser(prefetchThreshold: .max)
    static let ahead = YAMLParser(prefetchThreshold: 0)

    /// Every document of `text` as a string of contents, tags, styles and positions, or the error.
    static func outcome(_ text: String, with parser: YAMLParser) -> String {
        do {
            return try parser.documents(from: text, file: "p.yaml").map(shape).joined(separator: "\n---\n")
        } catch {
            return "error: \(error)"
        }
    }

    static func shape(_ node: YAMLNode) -> String {
        let at = "@\(node.location.line):\(node.location.column)\(node.tag.map { "!" + $0 } ?? "")"
        switch node.content {
        case .scalar(let text, let style): return "\(text)(\(style))" + at
        case .sequence(let elements): return "[" + elements.map(shape).joined(separator: ",") + "]" + at
        case .mapping(let entries):
            return "{" + entries.map { shape($0.key) + ":" + shape($0.value) }.joined(separator: ",") + "}" + at
        }
    }

    /// A file of a few thousand events (several batches), with anchors, aliases, merges,
    /// tags, block scalars and flow collections.
    static func sample(entries: Int) -> String {
        var text = "version: 1\nbase: &base { owner: team, tier: 2 }\nflags:\n"
        for index in 0..<entries {
            switch index % 5 {
            case 0: text += "  f\(index): { type: bool, default: \(index % 2 == 0), description: Flag \(index). }\n"
            case 1: text += "  f\(index):\n    <<: *base\n    default: !!str \(index)\n"
            case 2: text += "  f\(index): { type: string, enum: [a, b, \"c \(index)\"], default: 'a' }\n"
            case 3:
                text +=
                    "  f\(index):\n    description: |\n      Line one of \(index)\n      line two\n    default: 1.5\n"
            default: text += "  f\(index): { variants: { on: true, off: false }, defaultVariant: \"off\" }\n"
            }
        }
        return text
    }

    @Test("A large file parsed ahead gives the same trees and positions as one parsed inline")
    func sameTrees() {
        let text = Self.sample(entries: 3_000)
        let inline = Self.outcome(text, with: Self.inline)
        #expect(!inline.hasPrefix("error"), "\(inline.prefix(300))")
        #expect(Self.outcome(text, with: Self.ahead) == inline)
    }

    @Test("Scalars short and long, in any script, keys and values, read the same ahead as inline")
    func textsAroundTheInlineLimit() {
        var random = SplitMix64(seed: 0x7E47)
        // One-, two-, three- and four-byte characters, and a quote and a backslash to escape.
        let characters: [Character] = ["a", "Z", "7", " ", "é", "ß", "日", "本", "😀", "\"", "\\"]
        var text = "texts:\n"
        for index in 0..<2_500 {
            var scalar = ""
            while scalar.utf8.count < Int(random.next(below: 22)) {
                scalar.append(characters[Int(random.next(below: UInt64(characters.count)))])
            }
            let escaped = scalar.replacingOccurrences(of: "\\", with: "\\\\")
                .replacingOccurrences(of: "\"", with: "\\\"")
            // Keys, values, anchored values and sequence elements all make scalar nodes.
            switch index % 3 {
            case 0: text += "  \"k\(index) \(escaped)\": \"\(escaped)\"\n"
            case 1: text += "  k\(index): &a\(index) \"\(escaped)\"\n"
            default: text += "  k\(index): [\"\(escaped)\", x\(index)]\n"
            }
        }
        let inline = Self.outcome(text, with: Self.inline)
        #expect(!inline.hasPrefix("error"), "\(inline.prefix(300))")
        #expect(Self.outcome(text, with: Self.ahead) == inline)
        // The texts themselves, not only the same wrong ones on both sides.
        #expect(inline.contains("😀") && inline.contains("日"))
    }

    @Test(
        "While the reader lags, the parsing thread does its idle work; endless work never stops parsing",
        .timeLimit(.minutes(2)))
    func idleWorkWhileAhead() throws {
        let text = Self.sample(entries: 3_000)
        let expected = Self.outcome(text, with: Self.inline)
        let units = Atomic<Int>(0)
        // Work that never runs out: the thread must still go back to parsing between units.
        let endless = IdleWork {
            units.add(1, ordering: .relaxed)
            usleep(50)
            return true
        }
        let outcome = try Self.ahead.readEvents(from: Array(text.utf8), file: "p.yaml", whileParsedAhead: endless) {
            reader throws(YAMLError) in
            // The reader starts late: the ring fills and the thread turns to its work (waited
            // for, up to a minute, however slowly this machine schedules the thread).
            let deadline = ContinuousClock.now + .seconds(60)
            while units.load(ordering: .relaxed) == 0, ContinuousClock.now < deadline { usleep(1_000) }
            var documents: [String] = []
            while try reader.nextDocument() { documents.append(Self.shape(try reader.composeNode())) }
            return documents.joined(separator: "\n---\n")
        }
        #expect(outcome == expected)
        #expect(units.load(ordering: .relaxed) > 0, "the thread worked while it waited for the reader")
    }

    @Test(
        "Broken files give the same error, at the same place, after the same events", .blocksItsThread,
        arguments: 0..<40)
    func sameErrors(seed: Int) {
        var random = SplitMix64(seed: 0x5EED_0000 + UInt64(seed))
        var bytes = Array(Self.sample(entries: 600).utf8)
        // A few cuts, duplicated spans and stray characters, anywhere: errors fall in every batch.
        for _ in 0..<Int(random.next(below: 4)) + 1 {
            let at = Int(random.next(below: UInt64(bytes.count)))
            switch random.next(below: 4) {
            case 0: bytes.removeSubrange(at..<min(bytes.count, at + Int(random.next(below: 40))))
            case 1: bytes.insert(contentsOf: Array("\t: [ &x *y ]\"".utf8).shuffled(using: &random).prefix(3), at: at)
            case 2: bytes.insert(contentsOf: bytes[at..<min(bytes.count, at + 60)], at: at)
            default: bytes.insert(0xFF, at: at)
            }
        }
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(Self.outcome(text, with: Self.ahead) == Self.outcome(text, with: Self.inline), "seed \(seed)")
    }

    @Test("A reader that stops early stops the parsing thread: no thread is left behind")
    func stopsEarly() throws {
        let bytes = Array(Self.sample(entries: 3_000).utf8)
        for _ in 0..<200 {
            let first = try Self.ahead.readEvents(from: bytes, file: "p.yaml") { reader throws(YAMLError) in
                _ = try reader.nextDocument()
                var mapping = try reader.enterMapping()
                return try reader.nextKey(in: &mapping)?.scalarText
            }
            #expect(first == "version")
        }
        // A reader that left its thread parsing would leave 200 here; other tests' loads, running
        // meanwhile in this process, hold one each for a moment.
        #expect(JoinableThread.runningCount(named: "ensign-yaml") <= 8, "each reader ended its thread")
    }

    @Test("Readers on several threads, each parsing ahead, read their own files")
    func concurrentReaders() async {
        let texts = (0..<4).map { Self.sample(entries: 400 + $0 * 50) }
        let expected = texts.map { Self.outcome($0, with: Self.inline) }
        await withTaskGroup(of: Bool.self) { group in
            for round in 0..<16 {
                let index = round % texts.count
                group.addTask { Self.outcome(texts[index], with: Self.ahead) == expected[index] }
            }
            for await same in group { #expect(same) }
        }
    }
}

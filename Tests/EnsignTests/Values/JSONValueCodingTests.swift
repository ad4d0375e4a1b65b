import Foundation
import Testing

@testable import Ensign

@Suite("Encoding and decoding Codable types as JSONValue")
struct JSONValueCodingTests {
    @Test("A nested struct with optionals, arrays, dictionaries and raw-value enums round-trips")
    func nestedStructRoundTrip() throws {
        let account = Account(
            user: User(
                name: "Ada", age: 36, tier: .pro, priority: .high,
                address: Address(street: "1 Rue de Rivoli", city: "Paris", postcode: nil),
                nickname: nil, tags: ["beta", "staff"], scores: ["math": 9.5, "art": 7],
                matrix: [[1, 2], [], [3]], optionalFlags: [true, nil, false]
            ),
            createdAt: 1_700_000_000
        )
        let encoded = try JSONValueEncoder().encode(account)
        let expected: JSONValue = [
            "user": [
                "name": "Ada", "age": 36, "tier": "pro", "priority": 3,
                "address": ["street": "1 Rue de Rivoli", "city": "Paris"],
                "tags": ["beta", "staff"], "scores": ["math": 9.5, "art": 7.0],
                "matrix": [[1, 2], [], [3]], "optionalFlags": [true, .null, false],
            ],
            "createdAt": 1_700_000_000,
        ]
        #expect(encoded == expected)
        #expect(encoded["user"]?["nickname"] == nil, "a nil optional leaves its key out")
        #expect(try JSONValueDecoder().decode(Account.self, from: encoded) == account)
    }

    @Test("Every integer width encodes as .int and decodes back at its limits")
    func integerWidths() throws {
        let lowest = Widths(
            i: .min, i8: .min, i16: .min, i32: .min, i64: .min, u: .min, u8: .min, u16: .min, u32: .min, u64: .min)
        let highest = Widths(
            i: .max, i8: .max, i16: .max, i32: .max, i64: .max, u: UInt(Int.max), u8: .max, u16: .max, u32: .max,
            u64: UInt64(Int.max))
        for widths in [lowest, highest] {
            let encoded = try JSONValueEncoder().encode(widths)
            #expect(encoded["i8"] == .int(Int(widths.i8)))
            #expect(encoded["u32"] == .int(Int(widths.u32)))
            #expect(try JSONValueDecoder().decode(Widths.self, from: encoded) == widths)
        }
    }

    @Test("A .double with no fractional part decodes as an integer of any width that holds it")
    func wholeDoublesDecodeAsIntegers() throws {
        let decoder = JSONValueDecoder()
        #expect(try decoder.decode(Int8.self, from: .double(-42)) == -42)
        #expect(try decoder.decode(UInt64.self, from: .double(9_007_199_254_740_992)) == 9_007_199_254_740_992)
        #expect(try decoder.decode([Int].self, from: [.double(1), .double(2)]) == [1, 2])
    }

    @Test("Integers decode as Double and Float")
    func integersDecodeAsFloatingPoint() throws {
        let decoder = JSONValueDecoder()
        #expect(try decoder.decode(Double.self, from: 3) == 3.0)
        #expect(try decoder.decode(Float.self, from: -7) == -7.0)
        #expect(try decoder.decode([String: Double].self, from: ["a": 1, "b": 2.5]) == ["a": 1.0, "b": 2.5])
    }

    @Test("A Float encodes as the short decimal it prints as, and decodes back to the same Float")
    func floatKeepsItsShortDecimal() throws {
        let encoded = try JSONValueEncoder().encode([Float(0.1), Float(1e-3), .greatestFiniteMagnitude])
        #expect(encoded == [0.1, 0.001, 3.4028235e38])
        #expect(try JSONValueDecoder().decode([Float].self, from: encoded) == [0.1, 1e-3, .greatestFiniteMagnitude])
    }

    @Test("Infinities and NaN encode as .double and decode back")
    func nonFiniteDoubles() throws {
        let encoded = try JSONValueEncoder().encode([Double.infinity, -.infinity, .nan])
        let elements = try #require(encoded.arrayValue)
        #expect(elements[0] == .double(.infinity))
        #expect(elements[1] == .double(-.infinity))
        guard case .double(let nan) = elements[2] else {
            Issue.record("NaN encoded as \(elements[2])")
            return
        }
        #expect(nan.isNaN)
        let decoded = try JSONValueDecoder().decode([Float].self, from: encoded)
        #expect(decoded[0] == .infinity && decoded[1] == -.infinity && decoded[2].isNaN)
    }

    @Test("null and a missing key both decode as nil; encodeNil writes an explicit null")
    func optionals() throws {
        let decoder = JSONValueDecoder()
        let decoded = try decoder.decode(Address.self, from: ["street": "Main", "city": "Oslo", "postcode": .null])
        #expect(decoded.postcode == nil)
        #expect(try decoder.decode(Address.self, from: ["street": "Main", "city": "Oslo"]).postcode == nil)
        #expect(
            try decoder.decode(Address.self, from: ["street": "M", "city": "O", "postcode": "0150"]).postcode == "0150")
        #expect(try decoder.decode(Int?.self, from: .null) == nil)
        #expect(try decoder.decode([Int?].self, from: [1, .null]) == [1, nil])
        #expect(try JSONValueEncoder().encode(ExplicitNull()) == ["gone": .null, "kept": 1])
    }

    @Test("A custom init(from:) and encode(to:) with nested keyed and unkeyed containers round-trip")
    func nestedContainers() throws {
        let polygon = Polygon(
            name: "triangle", points: [Point(x: 0, y: 0), Point(x: 4, y: 0), Point(x: 0, y: 3)],
            labels: ["A", "B", "C"])
        let encoded = try JSONValueEncoder().encode(polygon)
        #expect(
            encoded == [
                "meta": ["name": "triangle"], "points": [[0, 0], [4, 0], [0, 3]],
                "labels": [["text": "A"], ["text": "B"], ["text": "C"]],
            ])
        #expect(try JSONValueDecoder().decode(Polygon.self, from: encoded) == polygon)
    }

    @Test("A subclass keeps its superclass under the super key through superEncoder and superDecoder")
    func superEncoderAndDecoder() throws {
        let encoded = try JSONValueEncoder().encode(Derived(id: 7, label: "seven"))
        #expect(encoded == ["label": "seven", "super": ["id": 7]])
        let decoded = try JSONValueDecoder().decode(Derived.self, from: encoded)
        #expect(decoded.id == 7 && decoded.label == "seven")
    }

    @Test("A subclass and its superclass writing to the same encoder share one object")
    func sharedKeyedContainer() throws {
        let encoded = try JSONValueEncoder().encode(Flattened(id: 3, label: "three"))
        #expect(encoded == ["id": 3, "label": "three"])
        let decoded = try JSONValueDecoder().decode(Flattened.self, from: encoded)
        #expect(decoded.id == 3 && decoded.label == "three")
    }

    @Test("Elements written through an unkeyed superEncoder land in order")
    func unkeyedSuperEncoder() throws {
        let encoded = try JSONValueEncoder().encode(Pair(first: "a", second: 2))
        #expect(encoded == ["a", 2])
        #expect(try JSONValueDecoder().decode(Pair.self, from: encoded) == Pair(first: "a", second: 2))
    }

    @Test("Nested encoders and decoders see the coding path of their value")
    func codingPathsReachNestedValues() throws {
        let encoded = try JSONValueEncoder().encode(["items": [PathProbe(), PathProbe()]])
        #expect(encoded == ["items": ["items.0", "items.1"]])
        let decoded = try JSONValueDecoder().decode([String: [String: PathProbe]].self, from: ["a": ["b": 0]])
        #expect(decoded["a"]?["b"]?.path == "a.b")
    }

    @Test("userInfo reaches encode(to:) and init(from:)")
    func userInfo() throws {
        let key = Length.unitKey
        var encoder = JSONValueEncoder()
        encoder.userInfo[key] = "cm"
        #expect(try encoder.encode(Length(amount: 5)) == ["amount": 5, "unit": "cm"])
        var decoder = JSONValueDecoder()
        decoder.userInfo[key] = "mm"
        #expect(try decoder.decode(Length.self, from: ["amount": 5]).unit == "mm")
    }
}

extension JSONValueCodingTests {
    @Suite("JSONValue's own Codable conformance")
    struct Conformance {
        static let sample: JSONValue = [
            "flags": [true, false, .null], "count": 1, "ratio": 0.25, "big": 1e300, "name": "x",
            "nested": ["empty": [:], "list": [], "zero": 0],
        ]

        @Test("JSONValue goes through JSONValueEncoder and JSONValueDecoder unchanged, whole doubles included")
        func throughValueCoders() throws {
            let value: JSONValue = ["whole": 2.0, "int": 2, "inner": [1.0, "s", .null]]
            #expect(try JSONValueEncoder().encode(value) == value)
            #expect(try JSONValueDecoder().decode(JSONValue.self, from: value) == value)
            // An Optional holding .null is written as null and read back as nil, as with JSONDecoder.
            let wrapper = Wrapper(payload: value, list: [.double(3), .int(3)], optional: JSONValue.null)
            let encoded = try JSONValueEncoder().encode(wrapper)
            #expect(encoded == ["payload": value, "list": [.double(3), .int(3)], "optional": .null])
            let decoded = try JSONValueDecoder().decode(Wrapper.self, from: encoded)
            #expect(decoded == Wrapper(payload: value, list: [.double(3), .int(3)], optional: nil))
        }

        @Test("Through Foundation's JSONDecoder, true stays a boolean and 1 stays an int")
        func foundationDecoderKeepsKinds() throws {
            let text = #"[true, 1, 0, false, 1.5, "1", null, {"a": [false, 2]}, -3e2]"#
            let decoded = try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
            #expect(decoded == [true, 1, 0, false, 1.5, "1", .null, ["a": [false, 2]], -300])
            #expect(decoded.arrayValue?[1] == .int(1))
            #expect(decoded.arrayValue?[4] == .double(1.5))
        }

        @Test("JSONValue written by Foundation's JSONEncoder reads back equal")
        func foundationRoundTrip() throws {
            let encoder = JSONEncoder()
            encoder.outputFormatting = .sortedKeys
            let data = try encoder.encode(Self.sample)
            #expect(
                String(decoding: data, as: UTF8.self)
                    == #"{"big":1e+300,"count":1,"flags":[true,false,null],"name":"x","#
                    + #""nested":{"empty":{},"list":[],"zero":0},"ratio":0.25}"#)
            #expect(try JSONDecoder().decode(JSONValue.self, from: data) == Self.sample)
        }

        @Test("Through JSON text a whole double comes back as an int, since the text cannot tell them apart")
        func wholeDoubleThroughText() throws {
            let data = try JSONEncoder().encode(JSONValue.double(2))
            #expect(try JSONDecoder().decode(JSONValue.self, from: data) == .int(2))
        }

        @Test("A JSONValue field decodes from Foundation next to typed fields")
        func mixedStructThroughFoundation() throws {
            let text = #"{"payload": {"k": [1, 2.5]}, "list": [true], "optional": null}"#
            let decoded = try JSONDecoder().decode(Wrapper.self, from: Data(text.utf8))
            #expect(decoded == Wrapper(payload: ["k": [1, 2.5]], list: [true], optional: nil))
        }
    }
}

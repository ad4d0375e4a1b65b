// Types the JSONValue coding tests encode and decode. The synthesized ones exercise the
// common paths; the hand-written ones reach nested containers, super coders and userInfo.

import Ensign

extension JSONValueCodingTests {
    enum Tier: String, Codable { case free, pro }

    enum Priority: Int, Codable {
        case low = 1
        case high = 3
    }

    struct Address: Codable, Equatable {
        var street: String
        var city: String
        var postcode: String?
    }

    struct User: Codable, Equatable {
        var name: String
        var age: UInt8
        var tier: Tier
        var priority: Priority
        var address: Address
        var nickname: String?
        var tags: [String]
        var scores: [String: Double]
        var matrix: [[Int]]
        var optionalFlags: [Bool?]
    }

    struct Account: Codable, Equatable {
        var user: User
        var createdAt: Int64
    }

    struct Widths: Codable, Equatable {
        var i: Int
        var i8: Int8
        var i16: Int16
        var i32: Int32
        var i64: Int64
        var u: UInt
        var u8: UInt8
        var u16: UInt16
        var u32: UInt32
        var u64: UInt64
    }

    struct Wrapper: Codable, Equatable {
        var payload: JSONValue
        var list: [JSONValue]
        var optional: JSONValue?
    }

    /// Writes `gone` with `encodeNil(forKey:)`, which keeps the key with a null value.
    struct ExplicitNull: Encodable {
        enum CodingKeys: String, CodingKey { case gone, kept }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encodeNil(forKey: .gone)
            try container.encode(1, forKey: .kept)
        }
    }

    struct Point: Equatable {
        var x: Int
        var y: Int
    }

    /// `{"meta": {"name": …}, "points": [[x, y], …], "labels": [{"text": …}, …]}`, read and written
    /// by hand with every kind of nested container.
    struct Polygon: Codable, Equatable {
        var name: String
        var points: [Point]
        var labels: [String]

        enum CodingKeys: String, CodingKey { case meta, points, labels }
        enum MetaKeys: String, CodingKey { case name }
        enum LabelKeys: String, CodingKey { case text }

        init(name: String, points: [Point], labels: [String]) {
            self.name = name
            self.points = points
            self.labels = labels
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            let meta = try container.nestedContainer(keyedBy: MetaKeys.self, forKey: .meta)
            name = try meta.decode(String.self, forKey: .name)
            var pointList = try container.nestedUnkeyedContainer(forKey: .points)
            points = []
            while !pointList.isAtEnd {
                var pair = try pointList.nestedUnkeyedContainer()
                points.append(Point(x: try pair.decode(Int.self), y: try pair.decode(Int.self)))
            }
            var labelList = try container.nestedUnkeyedContainer(forKey: .labels)
            labels = []
            while !labelList.isAtEnd {
                let label = try labelList.nestedContainer(keyedBy: LabelKeys.self)
                labels.append(try label.decode(String.self, forKey: .text))
            }
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            var meta = container.nestedContainer(keyedBy: MetaKeys.self, forKey: .meta)
            try meta.encode(name, forKey: .name)
            var pointList = container.nestedUnkeyedContainer(forKey: .points)
            for point in points {
                var pair = pointList.nestedUnkeyedContainer()
                try pair.encode(point.x)
                try pair.encode(point.y)
            }
            var labelList = container.nestedUnkeyedContainer(forKey: .labels)
            for text in labels {
                var label = labelList.nestedContainer(keyedBy: LabelKeys.self)
                try label.encode(text, forKey: .text)
            }
        }
    }

    class Base: Codable {
        var id: Int

        init(id: Int) { self.id = id }
    }

    /// Keeps its superclass's members apart, under `super`.
    final class Derived: Base {
        var label: String

        enum CodingKeys: String, CodingKey { case label }

        init(id: Int, label: String) {
            self.label = label
            super.init(id: id)
        }

        required init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            label = try container.decode(String.self, forKey: .label)
            try super.init(from: container.superDecoder())
        }

        override func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(label, forKey: .label)
            try super.encode(to: container.superEncoder())
        }
    }

    /// Writes its superclass's members into the same object as its own.
    final class Flattened: Base {
        var label: String

        enum CodingKeys: String, CodingKey { case label }

        init(id: Int, label: String) {
            self.label = label
            super.init(id: id)
        }

        required init(from decoder: any Decoder) throws {
            label = try decoder.container(keyedBy: CodingKeys.self).decode(String.self, forKey: .label)
            try super.init(from: decoder)
        }

        override func encode(to encoder: any Encoder) throws {
            try super.encode(to: encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(label, forKey: .label)
        }
    }

    /// `[first, second]`, with `second` written and read through the unkeyed super coders.
    struct Pair: Codable, Equatable {
        var first: String
        var second: Int

        init(first: String, second: Int) {
            self.first = first
            self.second = second
        }

        init(from decoder: any Decoder) throws {
            var container = try decoder.unkeyedContainer()
            first = try container.decode(String.self)
            second = try Int(from: container.superDecoder())
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.unkeyedContainer()
            try container.encode(first)
            try second.encode(to: container.superEncoder())
        }
    }

    /// Encodes, and remembers when decoded, the coding path it was given: `items.0`.
    struct PathProbe: Codable {
        var path = ""

        init() {}

        init(from decoder: any Decoder) throws {
            path = PathProbe.describe(decoder.codingPath)
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(PathProbe.describe(encoder.codingPath))
        }

        static func describe(_ path: [any CodingKey]) -> String {
            path.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
        }
    }

    /// An amount whose unit comes from the coder's `userInfo["unit"]`.
    struct Length: Codable {
        var amount: Int
        var unit: String?

        enum CodingKeys: String, CodingKey { case amount, unit }

        static let unitKey = CodingUserInfoKey(rawValue: "unit")!

        init(amount: Int) { self.amount = amount }

        init(from decoder: any Decoder) throws {
            amount = try decoder.container(keyedBy: CodingKeys.self).decode(Int.self, forKey: .amount)
            unit = decoder.userInfo[Length.unitKey] as? String
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(amount, forKey: .amount)
            try container.encode(encoder.userInfo[Length.unitKey] as? String, forKey: .unit)
        }
    }
}

import Testing

@testable import Ensign

extension JSONValueCodingTests {
    @Suite("Decoding and encoding errors name the value that failed")
    struct Errors {
        static let address: JSONValue = ["street": "1 Main St", "city": "Oslo"]
        static let user: JSONValue = [
            "name": "Ada", "age": 36, "tier": "pro", "priority": 3, "address": address, "tags": [],
            "scores": [:], "matrix": [], "optionalFlags": [],
        ]

        /// An account around `user`, with the member at `path` set to `value`.
        static func account(setting path: [String], to value: JSONValue) -> JSONValue {
            editedAccount(path[...], value)
        }

        /// An account around `user`, without the member at `path`.
        static func account(removing path: [String]) -> JSONValue {
            editedAccount(path[...], nil)
        }

        private static func editedAccount(_ path: ArraySlice<String>, _ value: JSONValue?) -> JSONValue {
            func edit(_ node: JSONValue, _ path: ArraySlice<String>) -> JSONValue? {
                guard let first = path.first else { return value }
                var members = node.objectValue ?? [:]
                members[first] = edit(members[first] ?? [:], path.dropFirst())
                return .object(members)
            }
            let account: JSONValue = ["user": user, "createdAt": 1]
            return path.isEmpty ? account : edit(account, path) ?? account
        }

        /// The error decoding `type` from `value` throws, or an issue when it does not throw one.
        func decodingError<T: Decodable>(
            _ type: T.Type,
            from value: JSONValue,
            sourceLocation: Testing.SourceLocation = #_sourceLocation
        ) -> DecodingError? {
            #expect(throws: DecodingError.self, sourceLocation: sourceLocation) {
                try JSONValueDecoder().decode(type, from: value)
            }
        }

        func path(_ codingPath: [any CodingKey]) -> String {
            JSONValueCodingTests.PathProbe.describe(codingPath)
        }

        @Test("The fixture decodes, so each error below comes from the one change it makes")
        func fixtureDecodes() throws {
            let account = try JSONValueDecoder().decode(Account.self, from: Self.account(setting: ["createdAt"], to: 2))
            #expect(account.user.address.city == "Oslo")
        }

        @Test("A missing member throws keyNotFound with the path of its object and the missing key")
        func keyNotFound() {
            let error = decodingError(Account.self, from: Self.account(removing: ["user", "address", "city"]))
            guard case .keyNotFound(let key, let context) = error else {
                Issue.record("expected keyNotFound, got \(String(describing: error))")
                return
            }
            #expect(path(context.codingPath + [key]) == "user.address.city")
            #expect(context.debugDescription.contains(#"No value for key "city" in the object at user.address"#))
        }

        @Test("A value of the wrong kind throws typeMismatch that says what was found")
        func typeMismatch() {
            let error = decodingError(Account.self, from: Self.account(setting: ["user", "age"], to: "old"))
            guard case .typeMismatch(let type, let context) = error else {
                Issue.record("expected typeMismatch, got \(String(describing: error))")
                return
            }
            #expect(type is UInt8.Type)
            #expect(path(context.codingPath) == "user.age")
            #expect(context.debugDescription == #"Expected UInt8 at user.age but found the string "old"."#)
        }

        @Test("Booleans and numbers never stand in for each other")
        func boolsAndNumbersStayApart() {
            let decoder = JSONValueDecoder()
            #expect(throws: DecodingError.self) { try decoder.decode(Bool.self, from: 1) }
            #expect(throws: DecodingError.self) { try decoder.decode(Int.self, from: true) }
            #expect(throws: DecodingError.self) { try decoder.decode(Double.self, from: false) }
            #expect(throws: DecodingError.self) { try decoder.decode(String.self, from: 1) }
        }

        @Test("An Int8 member of 300 throws dataCorrupted that gives Int8's range")
        func int8Overflow() {
            for tooBig: JSONValue in [300, .double(300)] {
                let error = decodingError(Widths.self, from: Self.widths(settingI8To: tooBig))
                guard case .dataCorrupted(let context) = error else {
                    Issue.record("expected dataCorrupted, got \(String(describing: error))")
                    continue
                }
                #expect(path(context.codingPath) == "i8")
                #expect(context.debugDescription.contains("does not fit in Int8 (-128...127)"))
            }
        }

        @Test("Out-of-range and fractional numbers throw dataCorrupted for every numeric type")
        func numbersThatDoNotFit() {
            #expect(decodingError(UInt.self, from: -1).isDataCorrupted)
            #expect(decodingError(UInt64.self, from: .double(1.8e19 * 2)).isDataCorrupted)
            #expect(decodingError(Int16.self, from: 40_000).isDataCorrupted)
            #expect(decodingError(Int.self, from: 1.5).isDataCorrupted)
            #expect(decodingError(Int.self, from: .double(.infinity)).isDataCorrupted)
            #expect(decodingError(Float.self, from: 1e300).isDataCorrupted)
            let fractional = decodingError(Int32.self, from: 2.5)
            #expect(fractional.contextDescription?.contains("2.5 is not a whole number") == true)
        }

        @Test("null where a value is required throws valueNotFound; where it is Optional it is nil")
        func nullForRequiredValue() {
            let error = decodingError(Account.self, from: Self.account(setting: ["user", "name"], to: .null))
            guard case .valueNotFound(let type, let context) = error else {
                Issue.record("expected valueNotFound, got \(String(describing: error))")
                return
            }
            #expect(type is String.Type)
            #expect(path(context.codingPath) == "user.name")
            #expect(decodingError(Address.self, from: .null).isValueNotFound, "a struct needs an object, not null")
        }

        @Test("An index in the coding path counts array elements")
        func pathThroughArrays() {
            let error = decodingError([String: [Address]].self, from: ["homes": [Self.address, ["street": 5]]])
            guard let context = error.typeMismatchContext() else { return }
            #expect(path(context.codingPath) == "homes.1.street")
            #expect(context.debugDescription.contains("at homes[1].street"))
        }

        @Test("Reading past the end of an array throws valueNotFound at the missing index")
        func pastTheEnd() {
            let error = decodingError(Pair.self, from: ["only"])
            guard let context = error.valueNotFoundContext() else { return }
            #expect(path(context.codingPath) == "1")
            #expect(context.debugDescription.contains("the array has only 1 element"))
        }

        @Test("A container of the wrong kind throws typeMismatch at the value's path")
        func wrongContainer() {
            #expect(decodingError(Address.self, from: ["street", "city"]).isTypeMismatch)
            #expect(decodingError([Int].self, from: ["a": 1]).isTypeMismatch)
            let error = decodingError(Polygon.self, from: ["meta": "triangle", "points": [], "labels": []])
            guard let context = error.typeMismatchContext() else { return }
            #expect(path(context.codingPath) == "meta")
        }

        @Test("A failed decode in an array does not move past the element")
        func failedDecodeKeepsPosition() throws {
            var container = try JSONValueDecoder.ValueDecoder(value: ["x", .null], codingPath: [], userInfo: [:])
                .unkeyedContainer()
            #expect(throws: DecodingError.self) { try container.decode(Int.self) }
            #expect(try container.decodeNil() == false)
            #expect(try container.decode(String.self) == "x")
            #expect(try container.decodeNil() == true)
            #expect(container.isAtEnd)
        }

        @Test("An unsigned integer above Int.max cannot be encoded, and the error says where")
        func unsignedAboveIntMax() {
            var widths = Widths(i: 0, i8: 0, i16: 0, i32: 0, i64: 0, u: 0, u8: 0, u16: 0, u32: 0, u64: .max)
            let error = #expect(throws: EncodingError.self) { try JSONValueEncoder().encode(widths) }
            guard case .invalidValue(_, let context) = error else {
                Issue.record("expected invalidValue, got \(String(describing: error))")
                return
            }
            #expect(path(context.codingPath) == "u64")
            widths.u64 = UInt64(Int.max)
            #expect(throws: Never.self) { try JSONValueEncoder().encode(widths) }
        }

        @Test("A top-level value that encodes nothing is an error; a nested one becomes an empty object")
        func encodesNothing() throws {
            #expect(throws: EncodingError.self) { try JSONValueEncoder().encode(Silent()) }
            #expect(try JSONValueEncoder().encode(["quiet": Silent()]) == ["quiet": [:]])
        }

        static func widths(settingI8To value: JSONValue) -> JSONValue {
            let zero: JSONValue = 0
            return [
                "i": zero, "i8": value, "i16": zero, "i32": zero, "i64": zero, "u": zero, "u8": zero, "u16": zero,
                "u32": zero, "u64": zero,
            ]
        }

        /// A type whose `encode(to:)` writes nothing.
        struct Silent: Encodable {
            func encode(to encoder: any Encoder) throws {}
        }
    }
}

extension DecodingError? {
    fileprivate var isDataCorrupted: Bool {
        if case .dataCorrupted = self { return true }
        return false
    }

    fileprivate var isValueNotFound: Bool {
        if case .valueNotFound = self { return true }
        return false
    }

    fileprivate var isTypeMismatch: Bool {
        if case .typeMismatch = self { return true }
        return false
    }

    /// The context of a `typeMismatch`; for anything else, an issue is recorded and it is `nil`.
    fileprivate func typeMismatchContext(sourceLocation: SourceLocation = #_sourceLocation) -> DecodingError.Context? {
        if case .typeMismatch(_, let context) = self { return context }
        Issue.record("expected typeMismatch, got \(String(describing: self))", sourceLocation: sourceLocation)
        return nil
    }

    /// The context of a `valueNotFound`; for anything else, an issue is recorded and it is `nil`.
    fileprivate func valueNotFoundContext(sourceLocation: SourceLocation = #_sourceLocation) -> DecodingError.Context? {
        if case .valueNotFound(_, let context) = self { return context }
        Issue.record("expected valueNotFound, got \(String(describing: self))", sourceLocation: sourceLocation)
        return nil
    }

    /// The context's description, whichever kind of error this is.
    fileprivate var contextDescription: String? {
        switch self {
        case .dataCorrupted(let context), .keyNotFound(_, let context), .typeMismatch(_, let context),
            .valueNotFound(_, let context):
            return context.debugDescription
        default:
            return nil
        }
    }
}

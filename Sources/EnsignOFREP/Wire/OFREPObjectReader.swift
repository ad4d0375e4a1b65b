import Ensign
import EnsignJSON

/// Reads the members of one JSON object of an OFREP message, strictly: a member of the wrong
/// type is an error naming its path. Unknown members are ignored (the protocol adds members
/// over time, and a reader must not break on them).
struct OFREPObjectReader {
    /// Where the object is in the message (`flags[2]`); empty for the whole body.
    let path: String
    /// The object's members.
    let members: [String: JSONValue]

    /// A reader of `value`, which must be an object.
    init(_ value: JSONValue, path: String) throws(OFREPWireError) {
        guard case .object(let members) = value else {
            throw OFREPWireError(path: path, message: "expected an object, found \(Self.describe(value))")
        }
        self.path = path
        self.members = members
    }

    /// The path of member `name`.
    func path(of name: String) -> String { path.isEmpty ? name : "\(path).\(name)" }

    /// The member `name`, which must be present.
    func required(_ name: String) throws(OFREPWireError) -> JSONValue {
        guard let value = members[name] else { throw OFREPWireError(path: path(of: name), message: "missing") }
        return value
    }

    /// The string member `name`, which must be present.
    func requiredString(_ name: String) throws(OFREPWireError) -> String {
        try string(try required(name), named: name)
    }

    /// The string member `name`, or `nil` when it is absent.
    func optionalString(_ name: String) throws(OFREPWireError) -> String? {
        guard let value = members[name] else { return nil }
        return try string(value, named: name)
    }

    /// The integer member `name`, or `nil` when it is absent.
    func optionalInt(_ name: String) throws(OFREPWireError) -> Int? {
        guard let value = members[name] else { return nil }
        guard case .int(let number) = value else {
            throw OFREPWireError(path: path(of: name), message: "expected an integer, found \(Self.describe(value))")
        }
        return number
    }

    /// The Boolean member `name`, or `nil` when it is absent.
    func optionalBool(_ name: String) throws(OFREPWireError) -> Bool? {
        guard let value = members[name] else { return nil }
        guard case .bool(let flag) = value else {
            throw OFREPWireError(path: path(of: name), message: "expected true or false, found \(Self.describe(value))")
        }
        return flag
    }

    /// The array member `name`, or `nil` when it is absent.
    func optionalArray(_ name: String) throws(OFREPWireError) -> [JSONValue]? {
        guard let value = members[name] else { return nil }
        guard case .array(let elements) = value else {
            throw OFREPWireError(path: path(of: name), message: "expected an array, found \(Self.describe(value))")
        }
        return elements
    }

    /// The `metadata` member: an object whose values are Booleans, strings or numbers, as the
    /// specification's `metadata` schema allows; empty when absent.
    func metadata() throws(OFREPWireError) -> [String: JSONValue] {
        guard let value = members["metadata"] else { return [:] }
        let metadata = try OFREPObjectReader(value, path: path(of: "metadata"))
        for (name, entry) in metadata.members {
            switch entry {
            case .bool, .string, .int, .double: continue
            default:
                throw OFREPWireError(
                    path: metadata.path(of: name),
                    message: "expected a Boolean, a string or a number, found \(Self.describe(entry))")
            }
        }
        return metadata.members
    }

    /// Member `name`'s string; its path is made only for the error (every request reads one).
    private func string(_ value: JSONValue, named name: String) throws(OFREPWireError) -> String {
        guard case .string(let text) = value else {
            throw OFREPWireError(path: path(of: name), message: "expected a string, found \(Self.describe(value))")
        }
        return text
    }

    /// A short description of what was found instead: `the number 3`, `an array`.
    static func describe(_ value: JSONValue) -> String {
        switch value {
        case .null: return "null"
        case .bool(let flag): return "the Boolean \(flag)"
        case .int, .double: return "the number \(value.jsonText)"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }

    /// Parses a whole body as JSON; a syntax error becomes an ``OFREPWireError`` naming the offset.
    static func parse(_ bytes: [UInt8], maximumDepth: Int = 64) throws(OFREPWireError) -> JSONValue {
        do {
            return try JSONValue(jsonBytes: bytes, maximumDepth: maximumDepth)
        } catch let error as JSONParseError {
            throw OFREPWireError(path: "", message: "the body is not JSON (\(error))")
        } catch {
            throw OFREPWireError(path: "", message: "the body is not JSON (\(error))")
        }
    }
}

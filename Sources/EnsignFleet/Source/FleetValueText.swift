import Ensign
import EnsignJSON
import EnsignYAML

/// Reads a fleet value from the bytes etcd holds: JSON (`50`, `"name"`, `{"a": 1}`), or else
/// YAML (`name`, `{ a: 1 }`), since JSON is YAML and people also write YAML by hand.
///
/// ```swift
/// FleetValueText.parse(Array("{ a: 1 }".utf8), path: "etcd:/myapp/flags/x")  // .value(["a": 1])
/// ```
public enum FleetValueText {
    /// The largest value read (1 MiB); larger ones are unreadable.
    public static let maximumSize = 1 << 20

    /// A value read from etcd, or what is wrong with its text.
    public enum Parsed: Sendable, Hashable {
        /// The text is JSON or YAML for this value.
        case value(JSONValue)
        /// The text is empty, too large, or neither JSON nor YAML; why.
        case unreadable(String)
    }

    /// The value of `bytes`, or what is wrong with them; `path` names them in YAML errors.
    public static func parse(_ bytes: [UInt8], path: String) -> Parsed {
        guard bytes.count <= maximumSize else { return .unreadable("the value is larger than 1 MiB") }
        guard !bytes.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) else {
            return .unreadable("the value is empty")
        }
        if let value = try? JSONValue(jsonBytes: bytes) { return .value(value) }
        let documents: [YAMLNode]
        do {
            documents = try YAMLParser().documents(from: bytes, file: path)
        } catch {
            return .unreadable("the value is neither JSON nor YAML: \(error.message)")
        }
        guard documents.count == 1 else { return .unreadable("the value holds \(documents.count) YAML documents") }
        return .value(JSONValue(documents[0]))
    }
}

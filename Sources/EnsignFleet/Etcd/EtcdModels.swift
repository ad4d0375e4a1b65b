import Ensign

/// One key and its value as etcd stores them, with its revisions.
public struct EtcdKeyValue: Sendable, Hashable {
    /// The key.
    public var key: String
    /// The value's bytes.
    public var value: [UInt8]
    /// The revision that created the key.
    public var createRevision: Int64
    /// The revision of the last change to the key (the one `--if-revision` compares with).
    public var modRevision: Int64
    /// How many times the key was written since it was created.
    public var version: Int64

    /// The value as UTF-8 text.
    public var valueText: String { String(decoding: value, as: UTF8.self) }

    /// Reads a gateway `kv` object.
    init(json: JSONValue, endpoint: String) throws(EtcdError) {
        guard let keyText = json["key"]?.stringValue, let key = Base64.decode(keyText) else {
            throw .malformedResponse(endpoint: endpoint, detail: "a key-value has no base64 'key'")
        }
        self.key = String(decoding: key, as: UTF8.self)
        if let valueText = json["value"]?.stringValue {
            guard let value = Base64.decode(valueText) else {
                throw .malformedResponse(endpoint: endpoint, detail: "the value of '\(self.key)' is not base64")
            }
            self.value = value
        } else {
            self.value = []
        }
        createRevision = json["create_revision"]?.int64Value ?? 0
        modRevision = json["mod_revision"]?.int64Value ?? 0
        version = json["version"]?.int64Value ?? 0
    }

    /// Creates a key-value.
    public init(key: String, value: [UInt8], createRevision: Int64, modRevision: Int64, version: Int64) {
        self.key = key
        self.value = value
        self.createRevision = createRevision
        self.modRevision = modRevision
        self.version = version
    }
}

/// The keys a range read found, and the store revision it read at.
public struct EtcdRange: Sendable, Hashable {
    /// The store's revision when it was read.
    public var revision: Int64
    /// The keys, in key order.
    public var keyValues: [EtcdKeyValue]
}

/// The outcome of a write guarded by a key's revision (`ensign fleet set --if-revision`).
public enum EtcdComparison: Sendable, Hashable {
    /// The key was still at the revision given; the write is done, at `revision`.
    case succeeded(revision: Int64)
    /// The key had changed: its current state (`nil`: it does not exist) and the store revision.
    case failed(current: EtcdKeyValue?, revision: Int64)
}

/// One change a watch reports.
package struct EtcdEvent: Sendable, Hashable {
    /// What happened to the key.
    package enum Kind: Sendable, Hashable {
        /// The key was written.
        case put
        /// The key was deleted.
        case delete
    }

    /// What happened to the key.
    package var kind: Kind
    /// The key as the change left it (for a delete: its key and revisions).
    package var keyValue: EtcdKeyValue
}

/// One message of a watch stream.
package struct EtcdWatchResponse: Sendable, Hashable {
    /// The store revision when etcd sent it.
    package var revision: Int64
    /// The watch was just created.
    package var isCreated: Bool
    /// The watch was cancelled by etcd (for example, its start revision was compacted).
    package var isCanceled: Bool
    /// Why it was cancelled.
    package var cancelReason: String?
    /// When non-zero: the start revision was compacted; the oldest revision available.
    package var compactRevision: Int64
    /// The changes, in revision order.
    package var events: [EtcdEvent]

    /// Whether it is a progress notification (no events; everything up to `revision` was sent).
    package var isProgressNotification: Bool { events.isEmpty && !isCreated && !isCanceled && compactRevision == 0 }
}

extension JSONValue {
    /// A protobuf int64 as the gateway writes it: a JSON string of digits (or a number).
    var int64Value: Int64? {
        switch self {
        case .string(let text): return Int64(text)
        case .int(let value): return Int64(value)
        default: return nil
        }
    }
}

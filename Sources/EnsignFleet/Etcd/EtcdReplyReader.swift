import Ensign
import EnsignJSON

/// Reads the JSON etcd's gateway answers with into EnsignFleet's models: key ranges, write
/// revisions, compare-and-swap outcomes, tokens, watch messages and error answers.
///
/// It holds only the endpoint's name (for messages), so it runs without a connection: the
/// fuzzer's `fleet` target feeds it recorded and mutated answers.
package struct EtcdReplyReader: Sendable {
    /// The endpoint that answered, named in errors.
    package let endpoint: String

    /// A reader for answers from `endpoint`.
    package init(endpoint: String) {
        self.endpoint = endpoint
    }

    /// The JSON of an answer's body.
    package func json(_ bytes: [UInt8]) throws(EtcdError) -> JSONValue {
        do {
            return try JSONValue(jsonBytes: bytes)
        } catch {
            let text = String(decoding: bytes.prefix(200), as: UTF8.self)
            throw .malformedResponse(endpoint: endpoint, detail: "not JSON (\(error)): \(text)")
        }
    }

    /// The store revision in an answer's `header`.
    package func revision(of json: JSONValue) throws(EtcdError) -> Int64 {
        guard let revision = json["header"]?["revision"]?.int64Value else {
            throw .malformedResponse(endpoint: endpoint, detail: "no header revision")
        }
        return revision
    }

    /// A range read's keys and revision.
    package func range(_ json: JSONValue) throws(EtcdError) -> EtcdRange {
        var keyValues: [EtcdKeyValue] = []
        for item in json["kvs"]?.arrayValue ?? [] {
            keyValues.append(try EtcdKeyValue(json: item, endpoint: endpoint))
        }
        return EtcdRange(revision: try revision(of: json), keyValues: keyValues)
    }

    /// A delete's revision and how many keys it deleted.
    package func deletion(_ json: JSONValue) throws(EtcdError) -> (revision: Int64, deleted: Int64) {
        (try revision(of: json), json["deleted"]?.int64Value ?? 0)
    }

    /// The outcome of the compare-and-swap transaction ``EtcdEndpoint/write(_:value:ifModRevision:)``
    /// sends: its revision, and on failure the key as the transaction's read found it.
    package func comparison(_ json: JSONValue) throws(EtcdError) -> EtcdComparison {
        let revision = try revision(of: json)
        if json["succeeded"]?.boolValue == true { return .succeeded(revision: revision) }
        let current = try json["responses"]?.arrayValue?.first?["response_range"].map(range)
        return .failed(current: current?.keyValues.first, revision: revision)
    }

    /// The token an `authenticate` answer holds.
    package func token(_ json: JSONValue) throws(EtcdError) -> String {
        guard let token = json["token"]?.stringValue else {
            throw .malformedResponse(endpoint: endpoint, detail: "authenticate returned no token")
        }
        return token
    }

    /// One message of a watch stream; an `error` message is thrown as the server's error.
    package func watchResponse(_ json: JSONValue) throws(EtcdError) -> EtcdWatchResponse {
        if let error = json["error"] { throw serverError(error, status: 200) }
        guard let result = json["result"] else {
            throw .malformedResponse(endpoint: endpoint, detail: "a watch message has no 'result'")
        }
        var events: [EtcdEvent] = []
        for event in result["events"]?.arrayValue ?? [] {
            guard let kv = event["kv"] else {
                throw .malformedResponse(endpoint: endpoint, detail: "an event has no kv")
            }
            let kind: EtcdEvent.Kind = event["type"]?.stringValue == "DELETE" ? .delete : .put
            events.append(EtcdEvent(kind: kind, keyValue: try EtcdKeyValue(json: kv, endpoint: endpoint)))
        }
        return EtcdWatchResponse(
            revision: result["header"]?["revision"]?.int64Value ?? 0, isCreated: result["created"]?.boolValue == true,
            isCanceled: result["canceled"]?.boolValue == true, cancelReason: result["cancel_reason"]?.stringValue,
            compactRevision: result["compact_revision"]?.int64Value ?? 0, events: events)
    }

    /// An answer with an error status: the error its JSON holds, or, when the body is not
    /// JSON (the gateway refuses some requests in plain text), that text as the message.
    package func failure(_ bytes: [UInt8], status: Int) -> EtcdError {
        guard let json = try? JSONValue(jsonBytes: bytes) else {
            var text = String(decoding: bytes.prefix(300), as: UTF8.self)
            while text.last?.isWhitespace == true { text.removeLast() }
            if text.contains("CommonName of client") {
                text +=
                    " (with authentication enabled, etcd's JSON gateway, which Ensign uses, refuses a client"
                    + " certificate that has a Common Name: issue the client one without)"
            }
            return .server(endpoint: endpoint, code: 0, message: text.isEmpty ? "HTTP status \(status)" : text)
        }
        return serverError(json, status: status)
    }

    /// An error answer: `{"error": "…", "message": "…", "code": N}` (unary) or
    /// `{"grpc_code": N, "message": "…"}` (inside a stream's `error`).
    package func serverError(_ json: JSONValue, status: Int) -> EtcdError {
        let code = json["code"]?.intValue ?? json["grpc_code"]?.intValue ?? (status == 200 ? 2 : 0)
        let message = json["message"]?.stringValue ?? json["error"]?.stringValue ?? "HTTP status \(status)"
        return .server(endpoint: endpoint, code: code, message: message)
    }
}

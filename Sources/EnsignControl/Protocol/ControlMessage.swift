import Ensign
import EnsignJSON

/// The answer to one request: its result, or the error that refused it.
///
/// On the wire: `{"id": 1, "ok": true, "result": …}` or
/// `{"id": 1, "ok": false, "error": {"code": "NOT_FOUND", "message": "…"}}`.
public struct ControlReply: Sendable, Hashable {
    /// The identifier of the request this answers (``ControlRequestID/none`` for errors about
    /// lines whose identifier could not be read, and for notices such as `BUSY`).
    public var id: ControlRequestID
    /// The result, or the error.
    public var outcome: Result<JSONValue, ControlError>

    /// Creates a reply.
    public init(id: ControlRequestID, outcome: Result<JSONValue, ControlError>) {
        self.id = id
        self.outcome = outcome
    }

    /// The reply as a JSON object.
    public var json: JSONValue {
        switch outcome {
        case .success(let result):
            return ["id": id.json, "ok": true, "result": result]
        case .failure(let error):
            return [
                "id": id.json, "ok": false,
                "error": ["code": .string(error.code.rawValue), "message": .string(error.message)],
            ]
        }
    }
}

/// A change event pushed to a watching client, or a notice that some were dropped.
public enum ControlEvent: Sendable, Hashable {
    /// Keys changed in one transaction (only the keys the watch asked for).
    case change(watch: ControlRequestID, ChangeEventReport)
    /// The client read too slowly and the `count` oldest queued change events were dropped;
    /// the events after this one are the newest, so the last of them are current.
    case dropped(watch: ControlRequestID, count: Int)

    /// The event as a JSON object.
    public var json: JSONValue {
        switch self {
        case .change(let watch, let report):
            var object = (try? JSONValueEncoder().encode(report))?.objectValue ?? [:]
            object["event"] = "change"
            object["id"] = watch.json
            return .object(object)
        case .dropped(let watch, let count):
            return ["event": "dropped", "id": watch.json, "count": .int(count)]
        }
    }
}

/// One line a server sends: a reply or an event.
public enum ControlMessage: Sendable, Hashable {
    /// The answer to a request.
    case reply(ControlReply)
    /// A watch event.
    case event(ControlEvent)

    /// Reads one line a server sent (without its newline).
    ///
    /// - Throws: ``ControlError`` with `BAD_REQUEST` when the line is not a reply or an event
    ///   this protocol version defines.
    public static func parse(line: some Collection<UInt8>) throws(ControlError) -> ControlMessage {
        let json: JSONValue
        do {
            json = try JSONValue(jsonBytes: Array(line))
        } catch {
            throw ControlError(.badRequest, "the server sent malformed JSON: \(error)")
        }
        guard case .object(let members) = json, let id = ControlRequestID(json: members["id"]) else {
            throw ControlError(.badRequest, "the server sent a line that is not a reply: \(json.jsonText.prefix(80))")
        }
        if let event = members["event"] {
            return .event(try parseEvent(event, id: id, json: json))
        }
        switch members["ok"] {
        case true?:
            return .reply(ControlReply(id: id, outcome: .success(members["result"] ?? .null)))
        case false?:
            guard let code = members["error"]?["code"]?.stringValue.flatMap(ControlErrorCode.init(rawValue:)) else {
                let text = members["error"]?["code"]?.jsonText ?? "nothing"
                throw ControlError(.badRequest, "the server sent an error with an unknown code \(text)")
            }
            let message = members["error"]?["message"]?.stringValue ?? ""
            return .reply(ControlReply(id: id, outcome: .failure(ControlError(code, message))))
        default:
            throw ControlError(.badRequest, "the server sent a reply without \"ok\": \(json.jsonText.prefix(80))")
        }
    }

    private static func parseEvent(_ event: JSONValue, id: ControlRequestID, json: JSONValue) throws(ControlError)
        -> ControlEvent
    {
        switch event.stringValue {
        case "change":
            do {
                return .change(watch: id, try JSONValueDecoder().decode(ChangeEventReport.self, from: json))
            } catch {
                throw ControlError(.badRequest, "the server sent a change event this client cannot read: \(error)")
            }
        case "dropped":
            return .dropped(watch: id, count: json["count"]?.intValue ?? 0)
        default:
            throw ControlError(.badRequest, "the server sent an unknown event \(event.jsonText)")
        }
    }
}

/// One event of a `text/event-stream` (Server-Sent Events), as the parser dispatches it.
///
/// ```text
/// id: evt-1
/// event: message
/// data: {"type": "refetchEvaluation"}
/// ```
///
/// is `ServerSentEvent(type: "message", data: "{\"type\": \"refetchEvaluation\"}", lastEventID: "evt-1")`.
package struct ServerSentEvent: Sendable, Hashable {
    /// The `event:` field, `message` when the event names none.
    package var type: String
    /// The `data:` lines joined with line feeds.
    package var data: String
    /// The last `id:` the stream set (at or before this event), what a reconnecting client
    /// sends as `Last-Event-ID`; empty when none.
    package var lastEventID: String

    /// An event.
    package init(type: String = "message", data: String, lastEventID: String = "") {
        self.type = type
        self.data = data
        self.lastEventID = lastEventID
    }
}

/// Why an event stream was given up.
package enum ServerSentEventError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A line or an event's data is longer than the parser accepts; which, and the limit.
    case tooLarge(String, limit: Int)

    package var description: String {
        switch self {
        case .tooLarge(let what, let limit): return "the event stream's \(what) is longer than \(limit) bytes"
        }
    }
}

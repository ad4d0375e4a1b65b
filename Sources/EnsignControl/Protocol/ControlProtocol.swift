/// The constants of the control protocol that both ends agree on.
///
/// The protocol is newline-delimited JSON over a Unix domain socket. Each request is one
/// line holding a JSON object with an `id` (a number or a string, echoed in the reply) and
/// an `op`; each reply is one line:
///
/// ```
/// → {"id":1,"op":"hello","protocol":1,"client":"ensign 0.1.0"}
/// ← {"id":1,"ok":true,"result":{"app":"demo","ensignVersion":"0.1.0","environment":"development","pid":4242,"protocol":1}}
/// → {"id":2,"op":"set","key":"beneficiaries.pageSize","value":500}
/// ← {"error":{"code":"INVALID_VALUE","message":"'beneficiaries.pageSize' value 500 is above the maximum 100"},"id":2,"ok":false}
/// ```
///
/// A `watch` request is answered once and then followed by event lines until `stop` or the
/// client leaves: `{"event":"change","id":3,...}`, and `{"event":"dropped","id":3,"count":N}`
/// when a slow reader missed `N` changes.
public enum ControlProtocol {
    /// The protocol version this library speaks; `hello` exchanges it.
    public static let version = 1
    /// The longest request line accepted, in bytes, without its newline. A longer line gets
    /// a `TOO_LARGE` error and the connection is closed.
    public static let maximumLineLength = 64 * 1024
    /// How deeply a request's JSON may nest.
    public static let maximumDepth = 32
    /// The actor recorded in the change log for writes made through the control server.
    public static let actor = "cli"
}

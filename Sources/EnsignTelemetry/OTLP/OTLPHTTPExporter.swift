import Ensign
import EnsignHTTP

/// Sends events to an OpenTelemetry collector (or any OTLP receiver) over OTLP/HTTP, JSON
/// encoded: `POST <endpoint>/v1/logs`, each event a log record named by its `eventName`.
///
/// ```swift
/// let exporter = try OTLPHTTPExporter(
///     endpoint: "https://collector.internal:4318", serviceName: "bank-app",
///     headers: ["Authorization": "Bearer 8c1f0e"])
/// ```
///
/// The endpoint is the receiver's base URL, as `OTEL_EXPORTER_OTLP_ENDPOINT` gives it; `https`
/// uses the system's trust store unless a CA file is given. Answers 429, 502, 503 and 504, and
/// failures to connect, are retried (after the `Retry-After` pause when the receiver names
/// one); any other answer outside 2xx rejects the batch.
public struct OTLPHTTPExporter: TelemetryExporter {
    /// A configuration the exporter cannot use, with what to change.
    public struct ConfigurationError: Error, Sendable, Hashable, CustomStringConvertible {
        /// What is wrong and how to fix it.
        public var description: String
    }

    private let endpoint: HTTPEndpoint
    private let headers: [(name: String, value: String)]
    private let resource: [String: JSONValue]
    private let timeout: Duration
    private let tls: HTTPTLSFiles?

    /// An exporter to the receiver at `endpoint` (`http://localhost:4318`), for the service
    /// `serviceName` (the resource's `service.name`); `resourceAttributes` are added to the
    /// resource. Each export, connection included, may take `timeout`. For https, the CA file
    /// to trust instead of the system's authorities, and a client certificate and key for a
    /// receiver that asks for one, are PEM files.
    public init(
        endpoint: String, serviceName: String, resourceAttributes: [String: JSONValue] = [:],
        headers: [String: String] = [:], timeout: Duration = .seconds(10),
        certificateAuthorities: String? = nil, certificate: String? = nil, key: String? = nil
    ) throws(ConfigurationError) {
        do {
            self.endpoint = try HTTPEndpoint(endpoint)
        } catch {
            throw ConfigurationError(
                description: "the OTLP endpoint \(error); give the receiver's base URL, as http://localhost:4318")
        }
        let tls = HTTPTLSFiles(certificateAuthorities: certificateAuthorities, certificate: certificate, key: key)
        if let problem = tls.problem { throw ConfigurationError(description: problem) }
        self.tls = certificateAuthorities == nil && certificate == nil ? nil : tls
        for name in headers.keys where name.isEmpty || name.contains(where: { $0 == ":" || $0.isNewline || $0 == " " })
        {
            throw ConfigurationError(description: "the header name '\(name)' is not a valid HTTP header name")
        }
        for (name, value) in headers where value.contains(where: \.isNewline) {
            throw ConfigurationError(description: "the value of the header '\(name)' has a line break")
        }
        self.headers =
            [(name: "Content-Type", value: "application/json")]
            + headers.sorted { $0.key < $1.key }.map { (name: $0.key, value: $0.value) }
        var resource = resourceAttributes
        resource["service.name"] = .string(serviceName)
        resource["telemetry.sdk.name"] = "ensign"
        resource["telemetry.sdk.language"] = "swift"
        self.resource = resource
        self.timeout = timeout
    }

    /// Sends `events` as one request.
    public func export(_ events: [TelemetryEvent]) -> TelemetryExportResult {
        let body = OTLPLogsEncoding.body(for: events, resource: resource, scopeVersion: Self.version)
        let connection = HTTPConnection(endpoint: endpoint, dialTimeout: timeout, maximumBodySize: 1 << 20, tls: tls)
        let response: HTTPResponse
        do {
            response = try connection.send(
                HTTPRequest(method: "POST", path: "/v1/logs", headers: headers, body: body), timeout: timeout)
        } catch {
            return .retry(after: nil, reason: "\(error)")
        }
        switch response.status {
        case 200..<300:
            return .exported
        case 429, 502, 503, 504:
            let pause = response.head.header("Retry-After").flatMap { Int($0) }.map { Duration.seconds($0) }
            return .retry(after: pause, reason: "the receiver answered \(response.status)")
        default:
            let text = String(decoding: response.body.prefix(200), as: UTF8.self)
            return .rejected(reason: "the receiver answered \(response.status): \(text)")
        }
    }

    /// The instrumentation scope's version: Ensign's.
    static let version = EnsignVersion.current
}

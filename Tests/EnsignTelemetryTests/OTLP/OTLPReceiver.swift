import EnsignTestSupport
import Foundation

/// An OTLP/HTTP receiver nobody here wrote the decoding of: a small Python server that parses
/// each request body with OpenTelemetry's own `opentelemetry-proto` (PyPI), strictly (an unknown
/// field or a wrongly typed one is an error), and writes what it decoded, one JSON line per
/// request, with the raw body beside it.
final class OTLPReceiver {
    static let environment = PythonVirtualEnvironment(
        relativeDirectory: ".build/otel-proto",
        packages: ["opentelemetry-proto==1.45.2", "protobuf==7.36.2"],
        check: """
            import importlib.metadata, sys
            from opentelemetry.proto.collector.logs.v1.logs_service_pb2 import ExportLogsServiceRequest
            sys.exit(0 if importlib.metadata.version("opentelemetry-proto") == "1.45.2" else 3)
            """)

    /// The server: `receiver.py PORT OUTPUT FAILURES [CERTIFICATE KEY]` answers the first
    /// FAILURES requests 503, over TLS with the certificate when one is given.
    static let program = #"""
        import json, ssl, sys
        from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
        from google.protobuf import json_format
        from opentelemetry.proto.collector.logs.v1.logs_service_pb2 import ExportLogsServiceRequest

        port, output, failures = int(sys.argv[1]), sys.argv[2], int(sys.argv[3])
        state = {"requests": 0}

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                state["requests"] += 1
                if state["requests"] <= failures:
                    self.send_response(503)
                    self.send_header("Retry-After", "0")
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                line = {"path": self.path, "contentType": self.headers.get("Content-Type"),
                        "raw": body.decode("utf-8", "replace")}
                try:
                    request = json_format.Parse(body, ExportLogsServiceRequest())
                    records = []
                    for resource_logs in request.resource_logs:
                        resource = {a.key: json_format.MessageToDict(a.value) for a in resource_logs.resource.attributes}
                        for scope_logs in resource_logs.scope_logs:
                            for record in scope_logs.log_records:
                                records.append({
                                    "eventName": record.event_name,
                                    "timeUnixNano": record.time_unix_nano,
                                    "scope": scope_logs.scope.name,
                                    "resource": resource,
                                    "attributes": {a.key: json_format.MessageToDict(a.value) for a in record.attributes},
                                })
                    line["records"] = records
                    status, reply = 200, b"{}"
                except Exception as error:
                    line["error"] = str(error)
                    status, reply = 400, json.dumps({"error": str(error)}).encode()
                with open(output, "a", encoding="utf-8") as file:
                    file.write(json.dumps(line) + "\n")
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(reply)))
                self.end_headers()
                self.wfile.write(reply)

        server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
        if len(sys.argv) > 5:
            context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            context.load_cert_chain(sys.argv[4], sys.argv[5])
            server.socket = context.wrap_socket(server.socket, server_side=True)
        server.serve_forever()
        """#

    /// One request as the receiver decoded it.
    struct Request {
        var path: String
        var contentType: String?
        var raw: String
        var records: [[String: Any]]
        var error: String?
    }

    let port: Int
    let scheme: String
    let directory: TemporaryDirectory
    private let process: Process
    private let output: String

    /// Starts a receiver that answers its first `failures` requests 503; over TLS with
    /// `certificate` when given.
    init(failures: Int = 0, certificate: TestCertificate? = nil) throws {
        try Self.environment.prepare(for: "the OTLP exporter tests")
        directory = try TemporaryDirectory()
        port = try Loopback.freePort()
        scheme = certificate == nil ? "http" : "https"
        output = try directory.write("requests.jsonl", "")
        let script = try directory.write("receiver.py", Self.program)
        let log = try directory.write("receiver.log", "")
        process = try BuiltExecutable.start(
            executable: Self.environment.python,
            [script, String(port), output, String(failures)]
                + (certificate.map { [$0.certificate, $0.key] } ?? []), output: log,
            errors: log)
        let (port, process) = (port, process)
        guard
            waitUntil(
                "the OTLP receiver to listen on \(port)", timeout: .seconds(60),
                {
                    Loopback.accepts(port: port) || !process.isRunning
                }), process.isRunning
        else {
            throw OTLPReceiverFailure(
                description: "the receiver did not start: \((try? String(contentsOfFile: log, encoding: .utf8)) ?? "")")
        }
    }

    deinit {
        // Python's HTTP server may sit in a request's read past SIGTERM; it holds nothing to save.
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        BuiltExecutable.waitForExitOrKill(process, timeout: .seconds(10))
    }

    var endpoint: String { "\(scheme)://127.0.0.1:\(port)" }

    /// The requests received so far.
    func requests() throws -> [Request] {
        let text = try String(contentsOfFile: output, encoding: .utf8)
        return try text.split(separator: "\n").map { line in
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] ?? [:]
            return Request(
                path: object["path"] as? String ?? "", contentType: object["contentType"] as? String,
                raw: object["raw"] as? String ?? "", records: object["records"] as? [[String: Any]] ?? [],
                error: object["error"] as? String)
        }
    }
}

struct OTLPReceiverFailure: Error, CustomStringConvertible {
    var description: String
}

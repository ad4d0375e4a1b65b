import EnsignTestSupport
import Foundation

/// A small server in Python (the standard library only) that plays a part `ensign serve`
/// cannot: a TLS-terminating proxy in front of it, a server that redirects, one that never
/// answers. It prints `PORT n` once it listens and one line per thing it saw; the test reads
/// them from its output file.
final class PythonPeer {
    /// What the peer does.
    enum Role {
        /// TLS with `certificate` and `key` (PEM files) on its port, each connection piped to
        /// `upstreamPort` on 127.0.0.1 in the clear.
        case tlsProxy(certificate: String, key: String, upstreamPort: Int)
        /// Plain HTTP: answers every request with `307` to `/stolen` on itself, and prints
        /// `STOLEN <Authorization header>` when a request arrives there.
        case redirector
        /// Accepts connections, prints `CONNECTED`, reads and never answers.
        case silent
    }

    let process: Process
    let port: Int
    private let output: String
    /// Where its script and output are, kept as long as the peer.
    private let directory: TemporaryDirectory

    /// Starts the peer, its files in `directory` (a new one when `nil`), and waits until it listens.
    init(_ role: Role, directory: TemporaryDirectory? = nil) throws {
        let directory = try directory ?? TemporaryDirectory()
        self.directory = directory
        let label = UUID().uuidString.prefix(8)
        let script = try directory.write("peer-\(label).py", Self.script)
        output = try directory.write("peer-\(label).out", "")
        var arguments = [script]
        switch role {
        case .tlsProxy(let certificate, let key, let upstreamPort):
            arguments += ["tls-proxy", certificate, key, String(upstreamPort)]
        case .redirector:
            arguments += ["redirector"]
        case .silent:
            arguments += ["silent"]
        }
        let process = try BuiltExecutable.start(
            executable: URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-u"] + arguments, output: output,
            errors: output)
        self.process = process
        var found: Int?
        let output = output
        _ = waitUntil("the Python peer's port", timeout: .seconds(20)) {
            let text = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
            found = text.split(separator: "\n").first { $0.hasPrefix("PORT ") }.flatMap { Int($0.dropFirst(5)) }
            return found != nil || !process.isRunning
        }
        guard let found else { throw PeerFailure(output: (try? String(contentsOfFile: output, encoding: .utf8)) ?? "") }
        port = found
    }

    deinit { stop() }

    /// Everything it printed so far.
    var lines: [String] {
        ((try? String(contentsOfFile: output, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    /// Kills it.
    func stop() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    private static let script = #"""
        import http.server, socket, ssl, sys, threading

        def pipe(source, target):
            try:
                while True:
                    data = source.recv(65536)
                    if not data:
                        break
                    target.sendall(data)
            except OSError:
                pass
            for end in (source, target):
                try:
                    end.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass

        def tls_proxy(certificate, key, upstream_port):
            context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            context.load_cert_chain(certificate, key)
            listener = socket.create_server(("127.0.0.1", 0))
            print("PORT", listener.getsockname()[1], flush=True)
            def serve(client):
                try:
                    secure = context.wrap_socket(client, server_side=True)
                except (ssl.SSLError, OSError) as error:
                    print("HANDSHAKE FAILED", error, flush=True)
                    client.close()
                    return
                print("HANDSHAKE", secure.version(), flush=True)
                upstream = socket.create_connection(("127.0.0.1", upstream_port))
                threading.Thread(target=pipe, args=(upstream, secure), daemon=True).start()
                pipe(secure, upstream)
            while True:
                client, _ = listener.accept()
                threading.Thread(target=serve, args=(client,), daemon=True).start()

        class Redirector(http.server.BaseHTTPRequestHandler):
            def answer(self):
                length = int(self.headers.get("Content-Length") or 0)
                if length:
                    self.rfile.read(length)
                if self.path.startswith("/stolen"):
                    print("STOLEN", self.headers.get("Authorization"), flush=True)
                    body = b'{"flags": []}'
                    self.send_response(200)
                    self.send_header("Content-Type", "application/json")
                else:
                    print("REQUEST", self.command, self.path, flush=True)
                    body = b""
                    self.send_response(307)
                    self.send_header("Location", "http://127.0.0.1:%d/stolen" % self.server.server_port)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)
            do_GET = answer
            do_POST = answer
            def log_message(self, *arguments):
                pass

        def silent():
            listener = socket.create_server(("127.0.0.1", 0))
            print("PORT", listener.getsockname()[1], flush=True)
            held = []
            while True:
                client, _ = listener.accept()
                held.append(client)
                print("CONNECTED", flush=True)

        role = sys.argv[1]
        if role == "tls-proxy":
            tls_proxy(sys.argv[2], sys.argv[3], int(sys.argv[4]))
        elif role == "redirector":
            server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Redirector)
            print("PORT", server.server_port, flush=True)
            server.serve_forever()
        elif role == "silent":
            silent()
        """#
}

/// A real `ensign serve` over ``servedFlags`` with a TLS terminator in front of it (a fresh
/// self-signed certificate), kept running until ``stop()``.
struct ServedBehindTLS {
    let server: ServeProcess
    let certificate: TestCertificate
    let proxy: PythonPeer

    /// The certificate and the peer's files go in the server's own directory, which lasts as long as it.
    init() throws {
        server = try ServeProcess(serving: servedFlags, as: "list.yaml")
        certificate = try TestCertificate(in: server.directory)
        proxy = try PythonPeer(
            .tlsProxy(certificate: certificate.certificate, key: certificate.key, upstreamPort: server.port),
            directory: server.directory)
    }

    /// Stops both; also what keeps them alive until the test is done with them.
    func stop() {
        proxy.stop()
        server.kill()
    }
}

/// The Python peer did not start; its output.
struct PeerFailure: Error, CustomStringConvertible {
    var output: String
    var description: String { "the Python peer did not start: \(output)" }
}

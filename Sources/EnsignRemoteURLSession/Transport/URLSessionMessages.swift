import EnsignHTTP
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension URLRequest {
    /// `request` for `endpoint` as `URLSession` sends it: the same method, path, headers and
    /// body, never answered from a cache, failing after `idleTimeout` without data.
    init(_ request: HTTPRequest, at endpoint: HTTPEndpoint, idleTimeout: Duration) throws(HTTPError) {
        let text = endpoint.origin + endpoint.basePath + request.path
        guard let url = URL(string: text) else {
            throw .invalidURL(text, reason: "URLSession cannot read it as a URL")
        }
        self.init(
            url: url, cachePolicy: .reloadIgnoringLocalCacheData,
            timeoutInterval: Double(idleTimeout.components.seconds) + Double(idleTimeout.components.attoseconds) / 1e18)
        httpMethod = request.method
        for header in request.headers {
            addValue(header.value, forHTTPHeaderField: header.name)
        }
        if !request.body.isEmpty || request.method == "POST" || request.method == "PUT" {
            httpBody = Data(request.body)
        }
    }
}

extension HTTPResponseHead {
    /// The status and headers `URLSession` parsed.
    init(_ response: HTTPURLResponse) {
        var headers: [(name: String, value: String)] = []
        for (name, value) in response.allHeaderFields {
            guard let name = name as? String, let value = value as? String else { continue }
            headers.append((name: name, value: value))
        }
        headers.sort { $0.name.lowercased() < $1.name.lowercased() }  // a dictionary's order is random
        self.init(
            status: response.statusCode, reason: HTTPURLResponse.localizedString(forStatusCode: response.statusCode),
            headers: headers)
    }
}

extension HTTPError {
    /// The socket client's error for what `URLSession` reported, so the source's messages and
    /// retries do not depend on the transport; TLS failures say so.
    init(urlSessionError error: any Error, host: String) {
        guard let error = error as? URLError else {
            self = .connectFailed("\(error)")
            return
        }
        let reason = error.localizedDescription
        switch error.code {
        case .cancelled:
            self = .cancelled
        case .timedOut:
            self = .timedOut("waiting for \(host)")
        case .cannotFindHost, .dnsLookupFailed:
            self = .unresolvable(host: host, reason: reason)
        case .networkConnectionLost:
            self = .connectionClosed(reason)
        case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
            .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot, .clientCertificateRejected,
            .clientCertificateRequired:
            self = .connectFailed("TLS with \(host) failed: \(reason)")
        default:
            // FoundationNetworking reports libcurl's TLS failures as "unknown" with curl's
            // message ("SSL certificate problem: self-signed certificate"), which says it.
            self = .connectFailed(reason)
        }
    }
}

import Ensign
import EnsignOFREP

/// The `ofrep` target: an HTTP request as the OFREP service receives it from the server,
/// answered by the service over the fuzz fixtures' context; and the same bytes read by every
/// OFREP wire decoder (as the remote source reads a server's replies).
///
/// Input format: a first line `METHOD TARGET`, header lines `Name: value`, a blank line, then
/// the body (as HTTP/1.1 frames a request, line feeds or CR LF). The seeds are requests for
/// each endpoint.
///
/// Checked: every answer has a status OFREP defines; every body but a 304's is JSON of the
/// documented shape (a bulk 200 reads as a bulk response, a single 200 as a success, a 400 or
/// 404 as a failure); a 304 has no body; and the current ETag sent back is a 304.
enum OFREPTarget {
    /// One context for every input: the service must not change it.
    private static let service: OFREPService = {
        let context = try! AppContext(definitions: FuzzFixtures.definitions, FuzzFixtures.preferences)
        var options = OFREPServiceOptions()
        options.credentials = try! OFREPCredentials(token: "fuzz-token")
        options.eventStreamPath = OFREPServiceOptions.defaultEventStreamPath
        options.maximumBodyBytes = 4096
        return OFREPService(context: context, options: options)
    }()

    static let statuses: Set<Int> = [200, 304, 400, 401, 403, 404, 405, 413]

    static func run(_ bytes: [UInt8]) {
        decodeAll(bytes)
        guard let request = parse(bytes) else { return }
        let response = service.respond(to: request)
        check(response, for: request)
        if response.status == 200, let tag = response.header("etag") {
            var again = request
            again.headers["if-none-match"] = tag
            let revalidated = service.respond(to: again)
            fuzzCheck(revalidated.status == 304, "the current ETag \(tag) was answered \(revalidated.status)")
        }
    }

    private static func check(_ response: OFREPHTTPResponse, for request: OFREPHTTPRequest) {
        fuzzCheck(statuses.contains(response.status), "status \(response.status)")
        if response.status == 304 {
            fuzzCheck(response.body.isEmpty, "a 304 with a body")
            return
        }
        let isBulk = request.path == "/ofrep/v1/evaluate/flags"
        // `/ofrep/v1/evaluate/flags/` with no key is no endpoint: its 404 is a general error.
        let isSingle =
            request.path.hasPrefix("/ofrep/v1/evaluate/flags/") && request.path != "/ofrep/v1/evaluate/flags/"
        do {
            switch response.status {
            case 200 where isBulk: _ = try OFREPBulkEvaluationResponse(jsonBytes: response.body)
            case 200 where request.method == "GET": _ = try OFREPConfigurationResponse(jsonBytes: response.body)
            case 200: _ = try OFREPEvaluationSuccess(jsonBytes: response.body)
            case 400 where isBulk: _ = try OFREPBulkEvaluationFailure(jsonBytes: response.body)
            case 400 where isSingle, 404 where isSingle:
                _ = try OFREPEvaluationFailure(jsonBytes: response.body)
            default: _ = try OFREPGeneralError(jsonBytes: response.body)
            }
        } catch {
            fuzzCheck(false, "a \(response.status) body that does not read back: \(error)")
        }
    }

    /// Every decoder, on the raw bytes: errors are fine, traps are not.
    private static func decodeAll(_ bytes: [UInt8]) {
        _ = try? OFREPBulkEvaluationResponse(jsonBytes: bytes)
        _ = try? OFREPEvaluationSuccess(jsonBytes: bytes)
        _ = try? OFREPConfigurationResponse(jsonBytes: bytes)
        if let text = String(validating: bytes, as: UTF8.self) {
            _ = try? OFREPServerSentEvent(streamText: text)
        }
    }

    /// The request in `bytes`, or `nil` without a request line.
    private static func parse(_ bytes: [UInt8]) -> OFREPHTTPRequest? {
        var lines: [String] = []
        var position = 0
        while position < bytes.count {
            let end = bytes[position...].firstIndex(of: 0x0A) ?? bytes.count
            var line = bytes[position..<end]
            if line.last == 0x0D { line = line.dropLast() }
            position = end + 1
            if line.isEmpty { break }
            lines.append(String(decoding: line, as: UTF8.self))
        }
        guard let requestLine = lines.first else { return nil }
        let parts = requestLine.split(separator: " ", maxSplits: 1)
        guard parts.count == 2 else { return nil }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[String(line[..<colon])] = String(line[line.index(after: colon)...].drop { $0 == " " })
        }
        let body = position < bytes.count ? Array(bytes[position...]) : []
        return OFREPHTTPRequest(method: String(parts[0]), target: String(parts[1]), headers: headers, body: body)
    }
}

import Ensign
import EnsignHTTP
import EnsignOFREP
import EnsignSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension OFREPRemoteConfiguration {
    /// OFREP's standard client variables (OFREP ADR 0007, in `ofrep/service/adrs`).
    public enum EnvironmentVariable {
        /// The server's base URL: `OFREP_ENDPOINT=http://localhost:8016`.
        public static let endpoint = "OFREP_ENDPOINT"
        /// Request headers, comma-separated `name=value` pairs, percent-encoded:
        /// `OFREP_HEADERS=Authorization=Bearer%20secret,X-Team=payments`.
        public static let headers = "OFREP_HEADERS"
        /// The request timeout in milliseconds: `OFREP_TIMEOUT_MS=5000`.
        public static let timeoutMilliseconds = "OFREP_TIMEOUT_MS"
    }

    /// A configuration whose server, headers and request timeout default to OFREP's standard
    /// environment variables (``EnvironmentVariable``), so a deployment can point the same
    /// build at another server. What the code gives wins: `baseURL` over `OFREP_ENDPOINT`, each
    /// of `headers` over the header of the same name (in any case) in `OFREP_HEADERS`, and any
    /// property set on the result afterwards.
    ///
    /// ```swift
    /// // OFREP_ENDPOINT=https://flags.internal:8443 OFREP_HEADERS=Authorization=Bearer%20s3cret
    /// var configuration = try OFREPRemoteConfiguration.fromEnvironment(
    ///     evaluationContext: ["targetingKey": "user-42"])
    /// configuration.caFile = "/etc/ensign/ca.crt"
    /// ```
    ///
    /// `OFREP_HEADERS` is read as the ADR specifies: percent-decoded as a whole first, then
    /// split at every comma (so a value cannot hold one, even encoded), each pair at its first
    /// `=`, names and values trimmed. A `+` stays a `+` (it is not form encoding: base64
    /// tokens keep theirs). An entry without `=` or with an empty name is skipped, and so is
    /// the whole variable when its percent-encoding is broken; each skip is a warning in
    /// ``environmentWarnings``, which the source reports in the context's status.
    ///
    /// - Parameters:
    ///   - evaluationContext: The context every flag is evaluated in.
    ///   - baseURL: The server, when the code names one; otherwise `OFREP_ENDPOINT`.
    ///   - headers: Headers the code sets; they win over `OFREP_HEADERS`.
    ///   - variables: Where the variables are read (`nil`: this process's environment).
    /// - Throws: ``OFREPRemoteError/invalidConfiguration(_:)`` when no server is named, when
    ///   `OFREP_ENDPOINT` is not an `http[s]://` URL, or when `OFREP_TIMEOUT_MS` is not a
    ///   whole number of milliseconds above 0, each naming the variable.
    public static func fromEnvironment(
        evaluationContext: EvaluationContext, baseURL: String? = nil, headers: [String: String] = [:],
        variables: [String: String]? = nil
    ) throws(OFREPRemoteError) -> OFREPRemoteConfiguration {
        let read = { (name: String) -> String? in
            let value = variables.map { $0[name] } ?? ProcessEnvironment.value(name)
            return value?.isEmpty == true ? nil : value
        }
        let endpoint = EnvironmentVariable.endpoint
        guard let url = baseURL ?? read(endpoint).map(\.trimmingSpaces) else {
            throw .invalidConfiguration(
                "no OFREP server: set \(endpoint) (such as http://localhost:8016) or give a base URL")
        }
        if baseURL == nil {
            do { _ = try HTTPEndpoint(url) } catch {
                throw .invalidConfiguration("\(endpoint)='\(url)' is not a server URL: \(error)")
            }
        }
        var configuration = OFREPRemoteConfiguration(baseURL: url, evaluationContext: evaluationContext)
        if let text = read(EnvironmentVariable.headers) {
            let parsed = parseHeaders(text)
            let given = Set(headers.keys.map { $0.lowercased() })
            for (name, value) in parsed.headers where !given.contains(name.lowercased()) {
                configuration.headers[name] = value
            }
            configuration.environmentWarnings = parsed.warnings
        }
        for (name, value) in headers { configuration.headers[name] = value }
        if let text = read(EnvironmentVariable.timeoutMilliseconds) {
            guard let milliseconds = Int(text.trimmingSpaces), milliseconds > 0 else {
                throw .invalidConfiguration(
                    "\(EnvironmentVariable.timeoutMilliseconds)='\(text)' is not a number of milliseconds above 0")
            }
            configuration.requestTimeout = .milliseconds(milliseconds)
        }
        return configuration
    }

    /// `OFREP_HEADERS`'s pairs, by ADR 0007's rules, and a warning for each entry skipped.
    static func parseHeaders(_ text: String) -> (headers: [(name: String, value: String)], warnings: [String]) {
        let variable = EnvironmentVariable.headers
        guard let decoded = PercentDecoding.decode(text[...]) else {
            return (
                [],
                [
                    "\(variable) is not valid percent-encoding (a '%' not followed by two hex digits); no header is taken from it"
                ]
            )
        }
        var headers: [(name: String, value: String)] = []
        var warnings: [String] = []
        for (index, entry) in decoded.split(separator: ",", omittingEmptySubsequences: false).enumerated() {
            guard let equals = entry.firstIndex(of: "=") else {
                if !entry.trimmingSpaces.isEmpty {
                    warnings.append("\(variable) entry \(index + 1) has no '=' and is skipped")
                }
                continue
            }
            let name = entry[..<equals].trimmingSpaces
            let value = entry[entry.index(after: equals)...].trimmingSpaces
            guard !name.isEmpty else {
                warnings.append("\(variable) entry \(index + 1) has an empty name and is skipped")
                continue
            }
            guard !(name + value).utf8.contains(where: { $0 < 0x20 && $0 != 0x09 }) else {
                warnings.append("\(variable) entry \(index + 1) ('\(name)') holds a control character and is skipped")
                continue
            }
            headers.append((name, value))
        }
        return (headers, warnings)
    }
}

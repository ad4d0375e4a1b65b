import EnsignSupport

/// Metric families written in the Prometheus text exposition format (version 0.0.4): a
/// `# HELP` and a `# TYPE` line per family, then one line per sample, label values escaped.
struct PrometheusText {
    /// The exposition's content type.
    static let contentType = "text/plain; version=0.0.4; charset=utf-8"

    private(set) var text = ""

    /// A family of samples, each with its labels (in the order given) and value.
    mutating func family(
        _ name: String, _ type: MetricType, help: String, samples: [(labels: [(String, String)], value: Double)]
    ) {
        text += "# HELP \(name) \(Self.escapedHelp(help))\n# TYPE \(name) \(type.rawValue)\n"
        for sample in samples {
            text += name
            if !sample.labels.isEmpty {
                text += "{"
                text += sample.labels.map { "\($0.0)=\"\($0.1.backslashEscaped(.minimal))\"" }.joined(separator: ",")
                text += "}"
            }
            text += " \(Self.format(sample.value))\n"
        }
    }

    /// A family with a single sample and no labels.
    mutating func family(_ name: String, _ type: MetricType, help: String, value: Double) {
        family(name, type, help: help, samples: [([], value)])
    }

    enum MetricType: String {
        case counter, gauge
    }

    /// Integers without a fraction, the rest as Swift writes them; infinities and NaN as the
    /// format spells them.
    private static func format(_ value: Double) -> String {
        if value.isNaN { return "NaN" }
        if value.isInfinite { return value > 0 ? "+Inf" : "-Inf" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return String(value)
    }

    /// A help text: backslash and line feed escaped.
    private static func escapedHelp(_ help: String) -> String {
        help.replacing("\\", with: "\\\\").replacing("\n", with: "\\n")
    }
}

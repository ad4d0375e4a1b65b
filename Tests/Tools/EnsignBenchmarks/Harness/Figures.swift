/// Formats figures for the table without Foundation: fixed decimals, grouped thousands, units.
enum Figures {
    /// `value` with exactly `digits` decimals (rounded half away from zero).
    static func decimal(_ value: Double, digits: Int) -> String {
        guard value.isFinite else { return value.isNaN ? "nan" : (value < 0 ? "-inf" : "inf") }
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let scaled = (abs(value) * scale).rounded()
        let whole = Int(scaled / scale)
        let fraction = Int(scaled - Double(whole) * scale)
        var text = (value < 0 && scaled > 0 ? "-" : "") + grouped(whole)
        if digits > 0 {
            let fractionText = String(fraction)
            text += "." + String(repeating: "0", count: digits - fractionText.count) + fractionText
        }
        return text
    }

    /// An integer with thousands separated by commas: `1,234,567`.
    static func grouped(_ value: Int) -> String {
        let digits = Array(String(value.magnitude))
        var text = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index).isMultiple(of: 3) { text += "," }
            text.append(digit)
        }
        return (value < 0 ? "-" : "") + text
    }

    /// Three significant figures or so, in ns, µs, ms or s.
    static func time(nanoseconds: Double) -> String {
        switch nanoseconds {
        case ..<10: return decimal(nanoseconds, digits: 2) + " ns"
        case ..<1000: return decimal(nanoseconds, digits: 1) + " ns"
        case ..<1_000_000: return decimal(nanoseconds / 1000, digits: 2) + " µs"
        case ..<1_000_000_000: return decimal(nanoseconds / 1_000_000, digits: 2) + " ms"
        default: return decimal(nanoseconds / 1_000_000_000, digits: 2) + " s"
        }
    }

    /// Bytes in MB (10⁶ bytes, as the targets are written) or kB.
    static func bytes(_ bytes: Double) -> String {
        abs(bytes) >= 1_000_000
            ? decimal(bytes / 1_000_000, digits: 2) + " MB" : decimal(bytes / 1000, digits: 1) + " kB"
    }

    static func ratio(_ ratio: Double) -> String {
        decimal(ratio, digits: ratio < 10 ? 2 : 1) + "×"
    }

    static func allocations(_ perOperation: Double?) -> String {
        guard let perOperation else { return "n/a" }
        if perOperation == 0 { return "0" }
        if perOperation < 0.01 { return "<0.01" }
        return decimal(perOperation, digits: perOperation < 100 ? 2 : 0)
    }

    static func figure(_ value: Double?, unit: MeasurementUnit) -> String {
        guard let value else { return "n/a" }
        switch unit {
        case .nanosecondsPerOperation: return time(nanoseconds: value)
        case .bytes: return bytes(value)
        case .count: return decimal(value, digits: 0)
        }
    }
}

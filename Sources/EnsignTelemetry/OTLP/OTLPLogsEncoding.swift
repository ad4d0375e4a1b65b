import Ensign

/// Events as an OTLP `ExportLogsServiceRequest` in OTLP's JSON encoding: one resource, one
/// instrumentation scope, each event a log record with its `eventName`.
///
/// The encoding's rules (OpenTelemetry's OTLP specification, "JSON Protobuf Encoding"): field
/// names in lowerCamelCase, 64-bit integers as decimal strings, enums as numbers, and an
/// attribute value as an `AnyValue` object with one field set.
enum OTLPLogsEncoding {
    /// The request body for `events`, sent for the resource `resource`.
    static func body(for events: [TelemetryEvent], resource: [String: JSONValue], scopeVersion: String) -> [UInt8] {
        let records = events.map { event -> JSONValue in
            let time = JSONValue.string(String(event.timeUnixNanoseconds))
            return [
                "timeUnixNano": time, "observedTimeUnixNano": time,
                // SEVERITY_NUMBER_INFO: an event, not a problem.
                "severityNumber": 9, "severityText": "INFO",
                "eventName": .string(event.name), "attributes": keyValues(event.attributes),
            ]
        }
        let request: JSONValue = [
            "resourceLogs": [
                [
                    "resource": ["attributes": keyValues(resource)],
                    "scopeLogs": [
                        [
                            "scope": ["name": "Ensign", "version": .string(scopeVersion)],
                            "logRecords": .array(records),
                        ]
                    ],
                ]
            ]
        ]
        return Array(request.jsonText.utf8)
    }

    /// A list of `KeyValue`s, sorted by key so that a body is the same for the same events.
    static func keyValues(_ attributes: [String: JSONValue]) -> JSONValue {
        .array(attributes.sorted { $0.key < $1.key }.map { ["key": .string($0.key), "value": anyValue($0.value)] })
    }

    /// One `AnyValue`: JSON's null is an `AnyValue` with no field set.
    static func anyValue(_ value: JSONValue) -> JSONValue {
        switch value {
        case .null: return [:]
        case .bool(let flag): return ["boolValue": .bool(flag)]
        case .int(let number): return ["intValue": .string(String(number))]
        case .double(let number):
            // Protobuf's JSON spells the values JSON has no number for as these strings.
            guard number.isFinite else {
                return ["doubleValue": .string(number.isNaN ? "NaN" : number > 0 ? "Infinity" : "-Infinity")]
            }
            return ["doubleValue": .double(number)]
        case .string(let text): return ["stringValue": .string(text)]
        case .array(let items): return ["arrayValue": ["values": .array(items.map(anyValue))]]
        case .object(let members): return ["kvlistValue": ["values": keyValues(members)]]
        }
    }
}

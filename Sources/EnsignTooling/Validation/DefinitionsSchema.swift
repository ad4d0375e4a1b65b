import Ensign

/// The JSON Schema (draft 2020-12) of the definitions file format, for editors' YAML and
/// JSON plug-ins; `ensign schema` prints it.
///
/// Point an editor at it with a modeline in each definitions file:
///
/// ```yaml
/// # yaml-language-server: $schema=./ensign.schema.json
/// ```
///
/// The schema checks structure (fields, types, key syntax); ``DefinitionLoader`` checks the
/// rest (defaults against types and bounds, variants, duplicate keys, targeting).
package enum DefinitionsSchema {
    /// The regular expression every key and namespace matches.
    package static let keyPattern = #"^[A-Za-z0-9_][A-Za-z0-9_-]*(\.[A-Za-z0-9_][A-Za-z0-9_-]*)*$"#

    /// The schema document.
    package static var document: JSONValue {
        [
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "$id": "https://github.com/ensign-flags/ensign/schemas/definitions-v1.json",
            "title": "Ensign flag and preference definitions",
            "description": "Declares feature flags and user preferences: types, defaults, constraints, targeting.",
            "type": "object",
            "properties": [
                "version": ["const": 1, "description": "The format version; 1."],
                "namespace": [
                    "type": "string", "pattern": .string(keyPattern),
                    "description": "Prefixes every key in this file: namespace.key.",
                ],
                "$schema": ["type": "string"],
                "metadata": ["$ref": "#/$defs/metadata"],
                "flags": section(of: "#/$defs/flag", "Feature flags by key."),
                "preferences": section(of: "#/$defs/preference", "User preferences by key."),
                "$evaluators": [
                    "type": "object", "additionalProperties": ["$ref": "#/$defs/rule"],
                    "description": "Named targeting rules, used with {\"$ref\": name}.",
                ],
            ],
            "additionalProperties": false,
            "anyOf": [["required": ["flags"]], ["required": ["preferences"]]],
            "$defs": [
                "flag": ["type": "object", "properties": .object(flagProperties), "additionalProperties": false],
                "preference": [
                    "type": "object", "properties": .object(commonProperties), "additionalProperties": false,
                ],
                "metadata": [
                    "type": "object", "additionalProperties": ["type": ["string", "number", "boolean"]],
                    "description": "Values returned with every evaluation, as OpenFeature flag metadata.",
                ],
                "rule": [
                    "description": .string(ruleDescription),
                    "type": ["object", "array", "string", "number", "boolean", "null"],
                ],
            ],
        ]
    }

    private static let ruleDescription =
        "A JsonLogic rule with flagd's operators (fractional, sem_ver, starts_with, ends_with)."

    private static func section(of reference: String, _ description: String) -> JSONValue {
        [
            "type": ["object", "null"], "propertyNames": ["pattern": .string(keyPattern)],
            "additionalProperties": ["$ref": .string(reference)], "description": .string(description),
        ]
    }

    private static var commonProperties: [String: JSONValue] {
        [
            "type": [
                "enum": .array(FlagType.allCases.map { .string($0.rawValue) }),
                "description": "The value type; inferred from default or variants when omitted.",
            ],
            "default": ["description": "The value when nothing else applies."],
            "description": ["type": "string", "description": "What the key does."],
            "owner": ["type": "string", "description": "Who to ask about it."],
            "expires": [
                "type": "string", "pattern": #"^\d{4}-\d{2}-\d{2}$"#,
                "description": "YYYY-MM-DD; validation warns once it is past.",
            ],
            "environments": [
                "type": "object", "description": "Values by environment name.",
                "propertyNames": ["pattern": .string(keyPattern)],
            ],
            "enum": ["type": "array", "minItems": 1, "description": "The only values allowed."],
            "minimum": ["type": "number", "description": "Inclusive lower bound (int and double)."],
            "maximum": ["type": "number", "description": "Inclusive upper bound (int and double)."],
            "metadata": ["$ref": "#/$defs/metadata"],
            "secret": [
                "type": "boolean",
                "description": "When true, telemetry never exports the value (only key and variant).",
            ],
            "swiftType": [
                "type": "string", "pattern": .string(SwiftTypeName.pattern),
                "description":
                    "The Swift type `ensign generate` declares the key with (a CodableFlagValue for objects).",
            ],
        ]
    }

    private static var flagProperties: [String: JSONValue] {
        var properties = commonProperties
        properties["state"] = ["enum": ["ENABLED", "DISABLED"], "description": "DISABLED returns the code default."]
        properties["variants"] = [
            "type": "object", "minProperties": 1, "description": "Named values the flag can take (flagd).",
        ]
        properties["defaultVariant"] = [
            "type": ["string", "null"], "description": "The variant used when targeting does not decide.",
        ]
        properties["targeting"] = ["$ref": "#/$defs/rule"]
        return properties
    }
}

import Foundation

@testable import Ensign

/// The keys, definitions files and overlays the model-based tests draw from: a handful of
/// keys with small value domains (so writes often repeat a value and must wake nobody), and
/// file versions that move keys between layers, narrow their rules, remove and restore them.
enum ModelUniverse {
    static let environment = "staging"

    /// Every key any version defines, in a fixed order.
    static let keys = ["app.flag", "app.size", "app.mode", "app.target", "app.extra", "p.dark", "p.lang"]

    /// The keys a prefix scope `app` reads by their relative names.
    static let scopePrefix = "app"

    /// Values a generated write may try, per key: valid ones and ones some version refuses.
    static func candidateValues(for key: String) -> [JSONValue] {
        switch key {
        case "app.flag", "app.target", "p.dark": [.bool(true), .bool(false)]
        case "app.size": [.int(0), .int(2), .int(4), .int(7), .int(9), .int(12), .string("big")]
        case "app.extra": [.int(1), .int(2), .int(5)]
        case "app.mode": [.string("a"), .string("b"), .string("c"), .string("z")]
        case "p.lang": [.string("en"), .string("fr"), .string("de"), .int(3)]
        default: []
        }
    }

    /// The code default each test key is read with (distinct from every file value where the type allows).
    static func codeDefault(for key: String) -> JSONValue {
        switch key {
        case "app.flag", "app.target", "p.dark": .bool(false)
        case "app.size", "app.extra": .int(-1)
        default: .string("<code default>")
        }
    }

    static func isPreference(_ key: String) -> Bool { key.hasPrefix("p.") }
}

/// One key's definition as the model sees it.
struct ModelDefinition: Equatable {
    enum ValueType { case bool, int, string }

    var type: ValueType
    var defaultValue: JSONValue
    var range: ClosedRange<Int>? = nil
    var allowed: [String]? = nil
    /// The inline `environments: { staging: … }` value.
    var stagingValue: JSONValue? = nil
    /// `if country == FR then "on" else null`, over variants on/off.
    var isTargeted = false

    /// Whether `value` fits this definition (type, bounds, enum).
    func fits(_ value: JSONValue) -> Bool {
        switch (type, value) {
        case (.bool, .bool): return true
        case (.int, .int(let number)): return range?.contains(number) ?? true
        case (.string, .string(let text)): return allowed?.contains(text) ?? true
        default: return false
        }
    }
}

/// The versions of `flags/app.yaml` a sequence moves between.
enum DefinitionsVersion: CaseIterable, CustomStringConvertible {
    /// Every key; `app.flag` on in staging; targeting on `app.target`.
    case base
    /// Narrower rules (`app.size` ≤ 5, `app.mode` without `c`), no `app.extra`, no inline staging value.
    case narrowed
    /// `app.target` without targeting, `app.mode` set inline for staging, other defaults.
    case retargeted
    /// `app.size` has a string default: an error.
    case invalidDefault
    /// Not YAML.
    case syntaxError
    /// Zero bytes (an editor's truncate before it writes).
    case empty

    var description: String { "definitions.\(self.name)" }

    private var name: String {
        switch self {
        case .base: "base"
        case .narrowed: "narrowed"
        case .retargeted: "retargeted"
        case .invalidDefault: "invalidDefault"
        case .syntaxError: "syntaxError"
        case .empty: "empty"
        }
    }

    /// The keys it defines, or `nil` when the file has errors.
    var definitions: [String: ModelDefinition]? {
        switch self {
        case .base:
            return [
                "app.flag": ModelDefinition(type: .bool, defaultValue: .bool(false), stagingValue: .bool(true)),
                "app.size": ModelDefinition(type: .int, defaultValue: .int(2), range: 0...9),
                "app.mode": ModelDefinition(type: .string, defaultValue: .string("a"), allowed: ["a", "b", "c"]),
                "app.target": ModelDefinition(type: .bool, defaultValue: .bool(false), isTargeted: true),
                "app.extra": ModelDefinition(type: .int, defaultValue: .int(1)),
                "p.dark": ModelDefinition(type: .bool, defaultValue: .bool(false)),
                "p.lang": ModelDefinition(type: .string, defaultValue: .string("en"), allowed: ["en", "fr", "de"]),
            ]
        case .narrowed:
            return [
                "app.flag": ModelDefinition(type: .bool, defaultValue: .bool(true)),
                "app.size": ModelDefinition(type: .int, defaultValue: .int(4), range: 0...5),
                "app.mode": ModelDefinition(type: .string, defaultValue: .string("b"), allowed: ["a", "b"]),
                "app.target": ModelDefinition(type: .bool, defaultValue: .bool(false), isTargeted: true),
                "p.dark": ModelDefinition(type: .bool, defaultValue: .bool(true)),
                "p.lang": ModelDefinition(type: .string, defaultValue: .string("en"), allowed: ["en", "fr", "de"]),
            ]
        case .retargeted:
            return [
                "app.flag": ModelDefinition(type: .bool, defaultValue: .bool(false)),
                "app.size": ModelDefinition(type: .int, defaultValue: .int(2), range: 0...9),
                "app.mode": ModelDefinition(
                    type: .string, defaultValue: .string("a"), allowed: ["a", "b", "c"], stagingValue: .string("c")),
                "app.target": ModelDefinition(type: .bool, defaultValue: .bool(true)),
                "app.extra": ModelDefinition(type: .int, defaultValue: .int(2)),
                "p.dark": ModelDefinition(type: .bool, defaultValue: .bool(false)),
                "p.lang": ModelDefinition(type: .string, defaultValue: .string("fr"), allowed: ["en", "fr", "de"]),
            ]
        case .invalidDefault, .syntaxError, .empty:
            return nil
        }
    }

    var text: String {
        switch self {
        case .base:
            return """
                version: 1
                flags:
                  app.flag: { type: bool, default: false, environments: { staging: true } }
                  app.size: { type: int, default: 2, minimum: 0, maximum: 9 }
                  app.mode: { type: string, enum: [a, b, c], default: a }
                  app.target:
                    variants: { "on": true, "off": false }
                    defaultVariant: "off"
                    targeting: { if: [{ "==": [{ var: country }, "FR"] }, "on", null] }
                  app.extra: { type: int, default: 1 }
                preferences:
                  p.dark: { type: bool, default: false }
                  p.lang: { type: string, enum: [en, fr, de], default: en }

                """
        case .narrowed:
            return """
                version: 1
                flags:
                  app.flag: { type: bool, default: true }
                  app.size: { type: int, default: 4, minimum: 0, maximum: 5 }
                  app.mode: { type: string, enum: [a, b], default: b }
                  app.target:
                    variants: { "on": true, "off": false }
                    defaultVariant: "off"
                    targeting: { if: [{ "==": [{ var: country }, "FR"] }, "on", null] }
                preferences:
                  p.dark: { type: bool, default: true }
                  p.lang: { type: string, enum: [en, fr, de], default: en }

                """
        case .retargeted:
            return """
                version: 1
                flags:
                  app.flag: { type: bool, default: false }
                  app.size: { type: int, default: 2, minimum: 0, maximum: 9 }
                  app.mode: { type: string, enum: [a, b, c], default: a, environments: { staging: c } }
                  app.target:
                    variants: { "on": true, "off": false }
                    defaultVariant: "on"
                  app.extra: { type: int, default: 2 }
                preferences:
                  p.dark: { type: bool, default: false }
                  p.lang: { type: string, enum: [en, fr, de], default: fr }

                """
        case .invalidDefault:
            return DefinitionsVersion.base.text.replacingOccurrences(of: "default: 2,", with: "default: two,")
        case .syntaxError:
            return "version: 1\nflags: [app.flag: {\n"
        case .empty:
            return ""
        }
    }
}

/// An overlay file's content: the environment's overlay or a deployment file.
enum OverlayVersion: CaseIterable, CustomStringConvertible {
    case sizeAndMode
    case flagsAndLanguage
    case targetAndDark
    /// `app.size: big`: an error under every definitions version.
    case invalidValue
    case syntaxError
    case empty
    /// No file.
    case deleted

    var description: String {
        switch self {
        case .sizeAndMode: "sizeAndMode"
        case .flagsAndLanguage: "flagsAndLanguage"
        case .targetAndDark: "targetAndDark"
        case .invalidValue: "invalidValue"
        case .syntaxError: "syntaxError"
        case .empty: "empty"
        case .deleted: "deleted"
        }
    }

    /// The values it sets, or `nil` for a file that cannot be read at all (or is not there).
    var values: [String: JSONValue]? {
        switch self {
        case .sizeAndMode: ["app.size": .int(5), "app.mode": .string("b")]
        // app.size 7 is refused where app.size is at most 5; app.extra is ignored where undefined.
        case .flagsAndLanguage:
            ["app.flag": .bool(false), "app.size": .int(7), "app.extra": .int(5), "p.lang": .string("de")]
        case .targetAndDark: ["app.target": .bool(true), "p.dark": .bool(true), "app.mode": .string("a")]
        case .invalidValue: ["app.size": .string("big")]
        case .syntaxError, .empty, .deleted: nil
        }
    }

    var text: String? {
        switch self {
        case .syntaxError: "flags: { app.size: [\n"
        case .empty: ""
        case .deleted: nil
        default: ModelYAML.overlayText(values ?? [:])
        }
    }
}

/// YAML text for the model's files.
enum ModelYAML {
    /// An overlay with each key in its section (preferences are the `p.` keys).
    static func overlayText(_ values: [String: JSONValue]) -> String {
        var text = ""
        for (section, isPreference) in [("flags", false), ("preferences", true)] {
            let keys = values.keys.filter { ModelUniverse.isPreference($0) == isPreference }.sorted()
            guard !keys.isEmpty else { continue }
            text += "\(section):\n"
            for key in keys { text += "  \(key): \(values[key]!.jsonText)\n" }
        }
        return text.isEmpty ? "{}\n" : text
    }
}

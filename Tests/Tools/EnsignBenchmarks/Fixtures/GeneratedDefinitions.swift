/// Definitions files generated in memory, shaped like real ones: compact flags of every type
/// with descriptions and owners, and flagd long-form flags with a small targeting rule.
enum GeneratedDefinitions {
    /// The key the static-read entries look up: 28 bytes, like DESIGN.md's reference lookup.
    static let staticKey = "checkout.showExpressPayments"
    /// A flag targeted by ``targetingRule``.
    static let targetedKey = "checkout.newPaymentFlow"
    /// A flag targeted by ``semVerRule``.
    static let semVerKey = "checkout.versionGatedReceipts"
    /// A long-form flag without targeting.
    static let untargetedKey = "checkout.splitPayments"

    /// Two conditions and a `fractional` split.
    static let targetingRule = """
        {"if":[{"and":[{"in":[{"var":"country"},["FR","BE"]]},{"==":[{"var":"plan"},"pro"]}]},\
        {"fractional":[["on",25],["off",75]]},null]}
        """

    /// A version gate.
    static let semVerRule = """
        {"if":[{"sem_ver":[{"var":"appVersion"},">=","2.4.0"]},"on","off"]}
        """

    /// About 100 flags: ``staticKey``, the targeted flags, and generated neighbours.
    static func hundredFlags() -> String {
        var text = """
            # Generated for the benchmarks: about 100 flags of a checkout module.
            version: 1
            flags:
              \(staticKey):
                type: bool
                default: false
                description: Offer the express payment buttons above the basket.
                owner: checkout
                environments: { development: true, staging: true, production: true }
              \(targetedKey):
                description: The new payment flow, for pro customers in France and Belgium.
                state: ENABLED
                variants: { "on": true, "off": false }
                defaultVariant: "off"
                targeting: \(targetingRule)
              \(semVerKey):
                description: Receipts for app versions that can show them.
                state: ENABLED
                variants: { "on": true, "off": false }
                defaultVariant: "off"
                targeting: \(semVerRule)
              \(untargetedKey):
                description: Split a payment between two cards.
                state: ENABLED
                variants: { "on": true, "off": false }
                defaultVariant: "on"

            """
        for index in 0..<96 { appendCompactFlag(index, key: "checkout.generated\(index)", to: &text) }
        return text
    }

    /// `count` flags (about 125 bytes each: 10,000 make a 1.25 MB file), one in eight in the
    /// flagd long form with a targeting rule. Some flags give values for production, so a
    /// context for that environment (the load and latency entries') can be built from it.
    static func manyFlags(count: Int) -> String {
        var text = """
            # Generated for the benchmarks: \(count) flags of a large catalogue.
            version: 1
            namespace: catalog
            metadata:
              generator: EnsignBenchmarks
            flags:

            """
        text.reserveCapacity(count * 130)
        for index in 0..<count {
            let key = "area\(index / 100).flag\(index)"
            if index % 8 == 7 {
                appendLongFormFlag(index, key: key, to: &text)
            } else {
                appendCompactFlag(index, key: key, to: &text)
            }
        }
        return text
    }

    private static func appendCompactFlag(_ index: Int, key: String, to text: inout String) {
        let owner = "team-\(index % 17)"
        switch index % 7 {
        case 0:
            text += """
                  \(key):
                    type: bool
                    default: \(index % 3 == 0)
                    description: Show feature \(index).
                    owner: \(owner)

                """
        case 1:
            text += """
                  \(key):
                    type: bool
                    default: false
                    description: Early access to feature \(index).
                    environments: { development: true, staging: true, production: false }

                """
        case 2:
            text += """
                  \(key): { type: int, default: \(20 + index % 50), minimum: 5, maximum: 100, owner: \(owner) }

                """
        case 3:
            text += """
                  \(key): { type: string, default: "banner-\(index)", description: Banner \(index) text key. }

                """
        case 4:
            text += """
                  \(key): { type: string, enum: [name, recent, amount], default: recent, owner: \(owner) }

                """
        case 5:
            text += """
                  \(key): { type: double, default: \(index % 90).5, minimum: 0, description: Limit \(index). }

                """
        default:
            text += """
                  \(key): { default: \(index % 2 == 0), description: Kill switch \(index), owner: \(owner) }

                """
        }
    }

    private static func appendLongFormFlag(_ index: Int, key: String, to text: inout String) {
        text += """
              \(key):
                description: Feature \(index), FR and BE first.
                state: ENABLED
                variants: { "on": true, "off": false }
                defaultVariant: "off"
                targeting:
                  if:
                    - in: [{ var: country }, [FR, BE]]
                    - fractional: [["on", \(index % 100)], ["off", \(100 - index % 100)]]
                    - "off"

            """
    }
}

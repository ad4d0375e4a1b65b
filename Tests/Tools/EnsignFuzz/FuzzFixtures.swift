/// The definitions the `fleet` and `session` targets run against: the sample banking app's
/// keys (every value type, bounds, an enum, flagd's long form with targeting, an object, a
/// preference), written here so the fuzzer reads no file at start-up.
enum FuzzFixtures {
    /// A long description, so that a few `list` replies fill the control server's 64 KiB of
    /// pending output: its back-pressure paths are then reached by short inputs, which keep
    /// the `session` target fast (a reply costs per key, not per byte).
    private static let description = String(repeating: "Shown in the debug menu and in every listing. ", count: 24)

    /// Flags in two namespaces, with an inline development value.
    static let definitions = """
        version: 1
        namespace: beneficiaries
        flags:
          showPendingList:
            { type: bool, default: false, environments: { development: true }, description: "\(description)" }
          pageSize: { type: int, default: 20, minimum: 5, maximum: 100, description: "\(description)" }
          sortOrder: { type: string, enum: [name, recent], default: recent, description: "\(description)" }
          feeRate: { type: double, default: 0.5, minimum: 0, description: "\(description)" }
          banner: { type: object, default: { title: Hello, colors: [red, blue] } }
          newFlow:
            state: ENABLED
            variants: { "on": true, "off": false }
            defaultVariant: "off"
            targeting:
              if:
                - in: [{ var: country }, [FR, BE]]
                - fractional: [["on", 25], ["off", 75]]
                - null
        """

    /// Preferences, without a namespace.
    static let preferences = """
        version: 1
        preferences:
          appearance.darkMode: { type: bool, default: false }
          locale.language: { type: string, enum: [en, fr, de, zh], default: en }
        """
}

/// Stops the process when an invariant does not hold: libFuzzer keeps the input as a crash,
/// and a replay prints `message`.
func fuzzCheck(
    _ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String, file: StaticString = #fileID,
    line: UInt = #line
) {
    if !condition() { fatalError("fuzz invariant broken: \(message())", file: file, line: line) }
}

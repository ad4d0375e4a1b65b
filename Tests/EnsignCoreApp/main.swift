// The smallest app that depends on Ensign alone: CoreDependencyTests (and scripts/test) read
// the libraries it links, so the core's promise of no Foundation (and so no ICU) is checked
// on a real executable. Every object file of Ensign is linked into it, used or not.
//
//   EnsignCoreApp    prints "ok <value>" after reading a targeted flag
import Ensign

let definitions = """
    version: 1
    flags:
      app.recent:
        variants: { "yes": true, "no": false }
        defaultVariant: "no"
        targeting: { if: [{ ">": [{ var: "$flagd.timestamp" }, 0] }, "yes", "no"] }
    """
do {
    let context = try AppContext(definitions: definitions)
    print("ok \(context[FlagKey("app.recent", default: false)])")
} catch {
    print("error: \(error)")
}

import Dispatch
import Ensign

/// A section of the demo app: it receives a scoped context, observes only its own keys,
/// and renders itself again when, and only when, one of them changes.
protocol DemoModule: AnyObject, Sendable {
    /// The module's name, as printed.
    var name: String { get }
    /// The lines of the module's section for the current values.
    func render() -> [String]
}

/// Draws modules and says which one re-rendered and why.
final class DemoScreen: Sendable {
    private let output = LockedOutput()
    private let usesColor: Bool

    init(usesColor: Bool) {
        self.usesColor = usesColor
    }

    /// Prints a module's section, with the reason it was drawn.
    func draw(_ module: any DemoModule, because reason: String) {
        let console = Console(usesColor: usesColor)
        var lines = [console.styled("┌ \(module.name)", .bold) + console.styled("  \(reason)", .dim)]
        lines += module.render().map { "│ " + $0 }
        lines.append("└")
        output.write(lines.joined(separator: "\n") + "\n")
    }

    /// Prints a plain line.
    func say(_ line: String) {
        output.write(line + "\n")
    }
}

/// Serialises writes to standard output from observer threads.
private final class LockedOutput: Sendable {
    private let queue = DispatchQueue(label: "ensign.demo.output")

    func write(_ text: String) {
        queue.sync {
            var console = Console(usesColor: false)
            console.write(text)
            console.flush()
        }
    }
}

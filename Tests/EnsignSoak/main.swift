// The soak: a long-running app under a steady load, with its accounting checked at the end.
//
//   EnsignSoak [SECONDS] [--seed N] [--keep]
//       runs the driver for SECONDS (default 60): starts the app, loads it, checks it
//   EnsignSoak app DIRECTORY
//       the app itself (the driver starts it)
//
// scripts/soak builds and runs it; see SoakPlan for the load and SoakVerdict for the checks.
import Foundation

signal(SIGPIPE, SIG_IGN)
var arguments = Array(CommandLine.arguments.dropFirst())
do {
    if arguments.first == "app", arguments.count == 2 {
        try SoakApp.run(directory: arguments[1])
    }
    var seconds = 60
    var seed = UInt64(truncatingIfNeeded: Int(Date().timeIntervalSince1970))
    var keepDirectory = false
    while let argument = arguments.first {
        arguments.removeFirst()
        switch argument {
        case "--seed":
            guard let value = arguments.first.flatMap(UInt64.init) else { throw SoakError("--seed needs a number") }
            seed = value
            arguments.removeFirst()
        case "--keep": keepDirectory = true
        default:
            guard let value = Int(argument), value > 0 else {
                throw SoakError("usage: EnsignSoak [SECONDS] [--seed N] [--keep] | app DIRECTORY")
            }
            seconds = value
        }
    }
    exit(try SoakDriver.run(seconds: seconds, seed: seed, keepDirectory: keepDirectory))
} catch {
    FileHandle.standardError.write(Data("soak: error: \(error)\n".utf8))
    exit(2)
}

import Ensign

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// Loads a definitions bundle, as an app on a platform without libyaml does, and prints every
// key's value for the environment given: `JSONOnlyApp Flags.bundle.json production`.
let arguments = CommandLine.arguments.dropFirst()
guard let bundle = arguments.first else {
    print("usage: JSONOnlyApp BUNDLE [ENVIRONMENT]")
    exit(2)
}
var configuration = AppContextConfiguration(definitionsDirectory: bundle, environment: arguments.dropFirst().first)
configuration.watchesFiles = false
do {
    let context = try AppContext(configuration: configuration)
    for key in context.snapshot.keys {
        print("\(key) = \(context.details(forKeyNamed: key).value)")
    }
} catch {
    print(error)
    exit(1)
}

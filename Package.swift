// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "Ensign",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "Ensign", targets: ["Ensign"]),
        .library(name: "EnsignControl", targets: ["EnsignControl"]),
        .library(name: "EnsignFleet", targets: ["EnsignFleet"]),
        .library(name: "EnsignRemote", targets: ["EnsignRemote"]),
        // The remote source over URLSession (https, TLS): the one Ensign library that links Foundation.
        .library(name: "EnsignRemoteURLSession", targets: ["EnsignRemoteURLSession"]),
        // OFREP's wire model and the evaluation service over an AppContext, without HTTP.
        .library(name: "EnsignOFREP", targets: ["EnsignOFREP"]),
        // `ensign serve`'s HTTP server (libmicrohttpd), for Swift servers that serve OFREP themselves.
        .library(name: "EnsignServe", targets: ["EnsignServe"]),
        // The debug menu's model, shared by `ensign menu` and the in-app menu; no UI framework.
        .library(name: "EnsignDebugMenu", targets: ["EnsignDebugMenu"]),
        // What flags did, for OpenTelemetry: the evaluation-event hook, exposures, tracking and
        // an OTLP/HTTP exporter (libcurl, no Foundation).
        .library(name: "EnsignTelemetry", targets: ["EnsignTelemetry"]),
        // SwiftUI glue (the environment entry, @ContextFlag, previews' overrides, the menu view):
        // compiled where SwiftUI exists, empty elsewhere.
        .library(name: "EnsignSwiftUI", targets: ["EnsignSwiftUI"]),
        // For an app's test targets only: Swift Testing traits (a read of AppContext.unconfigured fails the test).
        .library(name: "EnsignTesting", targets: ["EnsignTesting"]),
        .executable(name: "ensign", targets: ["EnsignCLI"]),
        .plugin(name: "EnsignKeysPlugin", targets: ["EnsignKeysPlugin"]),
    ],
    // YAML needs libyaml, which iOS and the other Apple platforms do not ship: an app there
    // depends on Ensign with `traits: []` and loads JSON (see the README, "Without libyaml").
    traits: [
        .default(enabledTraits: ["YAML"]),
        .trait(
            name: "YAML",
            description: "Read and write YAML files with the system's libyaml; without it Ensign reads JSON only."),
    ],
    targets: [
        // libyaml's C API and nothing else; only EnsignYAML imports it.
        .systemLibrary(
            name: "CYAML",
            pkgConfig: "yaml-0.1",
            providers: [.apt(["libyaml-dev"]), .brew(["libyaml"])]
        ),
        // The package's plumbing, below every other module: one lock (with a condition variable),
        // one joinable thread, one wake-up pipe and cancellation, system-call errors, the
        // environment, "did you mean" suggestions. `package` access only: no app sees it.
        .target(name: "EnsignSupport"),
        .target(
            name: "EnsignYAML",
            dependencies: ["EnsignSupport", .target(name: "CYAML", condition: .when(traits: ["YAML"]))]),
        .target(name: "Ensign", dependencies: ["EnsignSupport", "EnsignYAML"]),
        // A strict, bounded RFC 8259 reader for JSON from other processes and people: the control
        // protocol, etcd's replies, `--context` arguments. The core never parses JSON text itself.
        .target(name: "EnsignJSON", dependencies: ["Ensign"]),
        .target(name: "EnsignControl", dependencies: ["EnsignSupport", "Ensign", "EnsignJSON"]),
        .target(name: "EnsignDebugMenu", dependencies: ["Ensign", "EnsignJSON"]),
        // Every file inside `#if canImport(SwiftUI)`: on Linux this module is empty.
        .target(name: "EnsignSwiftUI", dependencies: ["Ensign", "EnsignDebugMenu"]),
        // Test helpers, in their own library so that apps never link Swift Testing.
        .target(name: "EnsignTesting", dependencies: ["EnsignSupport", "Ensign"]),
        // Typed keys from definitions: `ensign generate` and the build-tool plugin run it.
        .target(name: "EnsignCodeGeneration", dependencies: ["EnsignSupport", "Ensign"]),
        // What the tools do with definitions and apps never do: `ensign validate`'s whole-directory
        // checks and report, the JSON schema, the flagd bundle export, `ensign debt`'s analysis (which
        // names keys as the generated code does).
        .target(
            name: "EnsignTooling", dependencies: ["Ensign", "EnsignYAML", "EnsignSupport", "EnsignCodeGeneration"]),
        // libcurl's C API and nothing else; only EnsignHTTP imports it (Linux and macOS ship libcurl).
        .systemLibrary(
            name: "CCurl",
            pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"])]
        ),
        // Outgoing HTTP on libcurl (http and https, TLS files, no Foundation), with the thread and
        // cancellation its blocking callers use: shared by the etcd and OFREP sources.
        .target(
            name: "EnsignHTTP",
            dependencies: ["EnsignSupport", .target(name: "CCurl", condition: .when(platforms: [.linux, .macOS]))]),
        // The fleet layer from etcd: etcd's JSON gateway over EnsignHTTP, and the source.
        .target(
            name: "EnsignFleet", dependencies: ["EnsignSupport", "Ensign", "EnsignJSON", "EnsignYAML", "EnsignHTTP"]),
        // The feature_flag.evaluation events of OpenTelemetry's conventions, from a hook; a bounded
        // queue drained by its own thread; the OTLP/HTTP JSON exporter over EnsignHTTP.
        .target(name: "EnsignTelemetry", dependencies: ["EnsignSupport", "Ensign", "EnsignHTTP"]),
        // OFREP (the OpenFeature Remote Evaluation Protocol): its messages, and the service that
        // answers requests from an AppContext; no sockets, so the remote source and tests share it.
        .target(name: "EnsignOFREP", dependencies: ["EnsignSupport", "Ensign", "EnsignJSON"]),
        // libmicrohttpd's C API and nothing else; only EnsignServe imports it.
        .systemLibrary(
            name: "CMicroHTTPD",
            pkgConfig: "libmicrohttpd",
            providers: [.apt(["libmicrohttpd-dev"]), .brew(["libmicrohttpd"])]
        ),
        // `ensign serve`'s HTTP server: the OFREP service and its event stream over libmicrohttpd,
        // bounded (connections, memory, bodies, headers, time-outs). Never a dependency of the core.
        .target(
            name: "EnsignServe", dependencies: ["EnsignSupport", "Ensign", "EnsignYAML", "EnsignOFREP", "CMicroHTTPD"]),
        // Apps reading a remote Ensign (or any OFREP server): the bulk-evaluation source for the
        // fleet layer, with SSE, polling and an offline cache on disk; no Foundation.
        .target(
            name: "EnsignRemote", dependencies: ["EnsignSupport", "Ensign", "EnsignJSON", "EnsignHTTP", "EnsignOFREP"]),
        // The remote source's URLSession transport, for https: TLS and the trust store of the
        // platform (FoundationNetworking's libcurl on Linux). Foundation stays out of EnsignRemote.
        .target(
            name: "EnsignRemoteURLSession", dependencies: ["EnsignSupport", "EnsignRemote", "EnsignHTTP", "Ensign"]),
        .executableTarget(
            name: "EnsignCLI",
            dependencies: [
                "EnsignSupport",
                "Ensign", "EnsignTooling", "EnsignJSON", "EnsignControl", "EnsignCodeGeneration", "EnsignFleet",
                "EnsignDebugMenu",
                "EnsignOFREP", "EnsignServe",
            ]),
        // Generates EnsignKeys.swift from a target's flags directory on every build where the YAML changed.
        .plugin(
            name: "EnsignKeysPlugin", capability: .buildTool(), dependencies: ["EnsignCLI"],
            path: "Sources/EnsignKeysPlugin"),
        // Development tools, in Tests/Tools: none is a product, so apps never see them.
        // Fuzz targets: a replay tool in normal builds, a libFuzzer binary under scripts/fuzz.
        .executableTarget(
            name: "EnsignFuzz",
            dependencies: [
                "Ensign", "EnsignTooling", "EnsignJSON", "EnsignYAML", "EnsignControl", "EnsignFleet", "EnsignHTTP",
                "EnsignOFREP", "EnsignRemote",
            ],
            path: "Tests/Tools/EnsignFuzz"),
        // The benchmarks (`scripts/bench`). CYAML is there for the raw libyaml scan the loader is
        // compared with.
        .executableTarget(
            name: "EnsignBenchmarks",
            dependencies: [
                "EnsignSupport",
                "Ensign", "EnsignJSON", "EnsignControl", "EnsignFleet", "EnsignYAML", "EnsignOFREP", "EnsignRemote",
                "EnsignServe", "EnsignTelemetry", .target(name: "CYAML", condition: .when(traits: ["YAML"])),
                "CAllocationCounter",
                "LoopbackLoad",
            ],
            path: "Tests/Tools/EnsignBenchmarks"
        ),
        // The C process `ensign validate` is timed against: a bare libyaml event scan of a file
        // (`scripts/bench` builds it with the benchmarks).
        .executableTarget(
            name: "libyaml-scan", dependencies: [.target(name: "CYAML", condition: .when(traits: ["YAML"]))],
            path: "Tests/Tools/LibYAMLScanTool"),
        // Counts heap allocations by interposing malloc (glibc only); linked by the benchmarks alone.
        .target(name: "CAllocationCounter", path: "Tests/Tools/CAllocationCounter"),
        .testTarget(
            name: "EnsignYAMLTests",
            dependencies: ["EnsignSupport", "EnsignYAML", "EnsignTestSupport", "EnsignTestTraits"]),
        .testTarget(name: "EnsignJSONTests", dependencies: ["EnsignJSON", "Ensign"]),
        // Helpers the test targets and the test executables share: running built executables, temporary
        // directories, one wait-until, one recorder, one counter, one seeded generator, the sample apps
        // and their keys. No Swift Testing, so that the probe and the soak, which are not tests, can use it too.
        .target(name: "EnsignTestSupport", dependencies: ["EnsignSupport", "Ensign"], path: "Tests/EnsignTestSupport"),
        // Thousands of loopback connections on one thread (event streams, slow clients), for the
        // serve tests and the benchmarks; no Foundation, so the benchmarks can link it.
        .target(name: "LoopbackLoad", dependencies: ["CEpoll"], path: "Tests/LoopbackLoad"),
        // A crowd of streams and slow clients in a process of its own, for the serve scale test.
        .executableTarget(name: "ServeCrowdProbe", dependencies: ["LoopbackLoad"], path: "Tests/ServeCrowdProbe"),
        // <sys/epoll.h>, which Swift's Glibc module leaves out, for LoopbackLoad.
        .target(name: "CEpoll", path: "Tests/CEpoll"),
        // Swift Testing traits the test targets share: `.blocksItsThread`, which runs a test that
        // blocks on threads of its own instead of the concurrency runtime's few.
        .target(name: "EnsignTestTraits", path: "Tests/EnsignTestTraits"),
        .testTarget(
            name: "EnsignTests",
            dependencies: [
                "EnsignSupport", "EnsignTooling",
                "Ensign", "EnsignJSON", "EnsignYAML", "EnsignTesting", "EnsignTestProbe", "EnsignCoreApp",
                "EnsignTestSupport", "EnsignTestTraits",
            ]),
        // A helper process for tests that need several writers or a killed one, or a heap of
        // their own to measure.
        .executableTarget(
            name: "EnsignTestProbe", dependencies: ["EnsignSupport", "Ensign", "CHeapStatistics", "EnsignTestSupport"],
            path: "Tests/EnsignTestProbe"),
        // Reads the heap in use (mallinfo2, or the sanitizer allocator's count), for the probe.
        .target(name: "CHeapStatistics", path: "Tests/CHeapStatistics"),
        // An app that depends on Ensign alone, whose linked libraries show the core needs no Foundation.
        .executableTarget(name: "EnsignCoreApp", dependencies: ["Ensign"], path: "Tests/EnsignCoreApp"),
        // The soak (`scripts/soak`): a long-running app under load, its accounting checked at the end.
        .executableTarget(
            name: "EnsignSoak",
            dependencies: ["EnsignSupport", "Ensign", "EnsignControl", "CHeapStatistics", "EnsignTestSupport"],
            path: "Tests/EnsignSoak"),
        .testTarget(
            name: "EnsignControlTests",
            dependencies: [
                "EnsignSupport",
                "EnsignControl", "Ensign", "EnsignJSON", "EnsignControlProbe", "EnsignTestSupport", "EnsignTestTraits",
            ]),
        // A helper process: connects to a control socket as another user, and checks in a
        // process of its own that stopping a server leaves no descriptor or thread behind.
        .executableTarget(
            name: "EnsignControlProbe", dependencies: ["Ensign", "EnsignControl", "CHeapStatistics"],
            path: "Tests/EnsignControlProbe"),
        // The security suite lives here too: its attacker plants files and sockets with EnsignControlProbe.
        .testTarget(
            name: "EnsignCLITests",
            dependencies: [
                "EnsignSupport", "EnsignTooling",
                "EnsignCLI", "EnsignControl", "Ensign", "EnsignJSON", "EnsignYAML", "EnsignTestSupport",
                "EnsignControlProbe", "EnsignDebugMenu", "EnsignTestTraits",
            ]),
        .testTarget(
            name: "EnsignOFREPTests", dependencies: ["EnsignOFREP", "Ensign", "EnsignJSON", "EnsignTestSupport"]),
        // `ensign serve` over real sockets: raw HTTP (a reader of its own parses the replies byte
        // for byte), the event stream, limits, and OpenFeature's own Python OFREP client.
        .testTarget(
            name: "EnsignServeTests",
            dependencies: [
                "EnsignServe", "EnsignOFREP", "Ensign", "EnsignJSON", "EnsignHTTP", "EnsignCLI", "EnsignTestSupport",
                "EnsignTestTraits", "LoopbackLoad", "ServeCrowdProbe",
            ]),
        .testTarget(
            name: "EnsignTelemetryTests",
            dependencies: ["EnsignTelemetry", "Ensign", "EnsignTestSupport", "EnsignTestTraits"]),
        .testTarget(
            name: "EnsignCodeGenerationTests",
            dependencies: ["EnsignSupport", "EnsignCodeGeneration", "EnsignTestTraits"]),
        .testTarget(
            name: "EnsignDebugMenuTests",
            dependencies: ["EnsignDebugMenu", "Ensign", "EnsignTestSupport", "EnsignTestTraits"]),
        .testTarget(
            name: "EnsignHTTPTests",
            dependencies: ["EnsignSupport", "EnsignHTTP", "Ensign", "EnsignTestSupport", "EnsignTestTraits"]),
        .testTarget(
            name: "EnsignFleetTests",
            dependencies: [
                "EnsignSupport",
                "EnsignFleet", "EnsignHTTP", "EnsignJSON", "EnsignCLI", "EnsignFleetProbe", "EnsignTestSupport",
                "EnsignTesting", "EnsignServe", "EnsignOFREP",
            ]),
        .testTarget(
            name: "EnsignRemoteTests",
            dependencies: [
                "EnsignSupport",
                "EnsignRemote", "EnsignRemoteURLSession", "EnsignHTTP", "EnsignOFREP", "Ensign", "EnsignJSON",
                "EnsignTesting", "EnsignTestSupport",
                "EnsignCLI", "EnsignRemoteProbe", "EnsignTestTraits",
            ]),
        // Writes the remote cache in a loop, for the test that kills it with SIGKILL mid-write; reads
        // flags over https in a mount namespace of its own that trusts a test CA.
        .executableTarget(
            name: "EnsignRemoteProbe", dependencies: ["EnsignRemote", "EnsignRemoteURLSession"],
            path: "Tests/EnsignRemoteProbe"),
        // An app instance joining a fleet, for tests that run several app processes.
        .executableTarget(
            name: "EnsignFleetProbe", dependencies: ["Ensign", "EnsignFleet"], path: "Tests/EnsignFleetProbe"),
    ],
    swiftLanguageModes: [.v6]
)

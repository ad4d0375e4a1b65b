import Ensign
import Foundation

/// Counts this process's inotify descriptors before, while and after a watching context
/// lives, in a process of its own: in the test runner other tests open and close watchers
/// at the same time, so a process-wide count there is a race.
///
///   EnsignTestProbe watcher-descriptors SCRATCH_DIR
///
/// Prints `before B during D after A`.
enum WatcherDescriptorProbe {
    static func run(directory: String) -> Int32 {
        let flags = directory + "/flags"
        let deployment = directory + "/deploy.yaml"
        do {
            try FileManager.default.createDirectory(atPath: flags, withIntermediateDirectories: true)
            try "flags:\n  list.pageSize: { default: 20 }\n".write(
                toFile: flags + "/app.yaml", atomically: true, encoding: .utf8)
            try "flags:\n  list.pageSize: 30\n".write(toFile: deployment, atomically: true, encoding: .utf8)
            let before = inotifyDescriptors()
            var during = -1
            do {
                var configuration = AppContextConfiguration(
                    definitionsDirectory: flags, environment: "test", deploymentFiles: [deployment])
                configuration.watchesFiles = true
                let context = try AppContext(configuration: configuration)
                guard context.value(forKeyNamed: "list.pageSize") == 30 else { return 1 }
                during = inotifyDescriptors()
            }
            // Dispatch closes a cancelled source's descriptor on its queue: wait for it, bounded.
            var after = inotifyDescriptors()
            for _ in 0..<200 where after > before {
                usleep(10_000)
                after = inotifyDescriptors()
            }
            say("before \(before) during \(during) after \(after)")
            return 0
        } catch {
            say("probe: \(error)")
            return 2
        }
    }

    static func inotifyDescriptors() -> Int {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return names.filter { name in
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(name)"))?.contains("inotify")
                == true
        }.count
    }
}

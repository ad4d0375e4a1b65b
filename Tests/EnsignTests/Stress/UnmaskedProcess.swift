#if canImport(Glibc)
    import Glibc
#endif

/// Runs a command with every signal unblocked and at its default disposition, its standard
/// output and standard error into one file, and waits for it with a time limit.
///
/// Foundation's `Process` starts a command with the signal mask of the calling thread, and
/// the test runner's threads (libdispatch workers) block nearly every signal, SIGCHLD among
/// them. gdb waits for its attached process's events through SIGCHLD, and with it blocked it
/// hung now and then; started here, it does not.
enum UnmaskedProcess {
    /// The command's exit status, or `nil` when it was killed after `timeout` (or could not start).
    static func run(_ executable: String, _ arguments: [String], output: String, timeout: Duration) -> Int32? {
        #if os(Linux)
            guard let pid = spawn(executable, arguments, output: output) else { return nil }
            let deadline = ContinuousClock.now + timeout
            var status: Int32 = 0
            while waitpid(pid, &status, WNOHANG) == 0 {
                if ContinuousClock.now >= deadline {
                    kill(pid, SIGKILL)
                    waitpid(pid, &status, 0)
                    return nil
                }
                usleep(10_000)
            }
            // WIFEXITED and WEXITSTATUS are macros, which Swift does not import.
            return status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        #else
            return nil  // gdb and the stress watchdog are for Linux.
        #endif
    }

    #if os(Linux)
        private static func spawn(_ executable: String, _ arguments: [String], output: String) -> pid_t? {
            var attributes = posix_spawnattr_t()
            var actions = posix_spawn_file_actions_t()
            posix_spawnattr_init(&attributes)
            posix_spawn_file_actions_init(&actions)
            defer {
                posix_spawnattr_destroy(&attributes)
                posix_spawn_file_actions_destroy(&actions)
            }
            var (none, all) = (sigset_t(), sigset_t())
            sigemptyset(&none)
            sigfillset(&all)
            posix_spawnattr_setsigmask(&attributes, &none)
            posix_spawnattr_setsigdefault(&attributes, &all)
            posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
            posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            posix_spawn_file_actions_adddup2(&actions, 1, 2)
            let argv = ([executable] + arguments).map { strdup($0) } + [nil]
            defer { for argument in argv { free(argument) } }
            var pid = pid_t()
            return posix_spawn(&pid, executable, &actions, &attributes, argv, environ) == 0 ? pid : nil
        }
    #endif
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The names of the files values came from, each stored once for the whole process and
/// referred to by a small number, so a position kept with every node, definition and resolved
/// entry costs 12 bytes (and no reference count) instead of a 16-byte string plus two 64-bit
/// integers.
///
/// Append-only: a process reads a handful of files (and tests a few thousand), so the table
/// never needs to forget a name. Number 0 is reserved for "no file".
package enum SourceFileNames {
    private struct Table {
        var names: [String] = [""]
        var numbers: [String: UInt32] = [:]
        /// The name last looked up and its number: consecutive positions almost always share
        /// their file (and its string storage, which makes the comparison a pointer check).
        var last: (name: String, number: UInt32) = ("", 0)
    }

    private static let table = TableLock(Table())

    /// The number for `name`, added to the table on first use.
    package static func number(for name: String) -> UInt32 {
        table.withLock { table in
            if table.last.name == name { return table.last.number }
            let number: UInt32
            if let known = table.numbers[name] {
                number = known
            } else {
                number = UInt32(table.names.count)
                table.names.append(name)
                table.numbers[name] = number
            }
            table.last = (name, number)
            return number
        }
    }

    /// The name numbered `number`.
    package static func name(_ number: UInt32) -> String {
        table.withLock { $0.names[Int(number)] }
    }

    /// The table behind a pthread mutex, which ThreadSanitizer sees (it cannot see
    /// `Synchronization.Mutex`'s futex on Linux); Ensign's `LockedState` is the same lock, in
    /// a module above this one.
    ///
    /// The table sits behind a pointer, not in a stored property: a class's `var` would cost
    /// a dynamic exclusivity check on every access, and every position a tool prints looks a
    /// name up here.
    private final class TableLock: @unchecked Sendable {
        // @unchecked Sendable, proven: `table`'s pointee is only touched in `withLock`, between
        // pthread_mutex_lock and pthread_mutex_unlock on `mutex`; both live as long as the
        // process (the one instance is a static, never deinitialised).
        private let table: UnsafeMutablePointer<Table>
        private let mutex: UnsafeMutablePointer<pthread_mutex_t>

        init(_ initial: Table) {
            table = .allocate(capacity: 1)
            table.initialize(to: initial)
            mutex = .allocate(capacity: 1)
            mutex.initialize(to: pthread_mutex_t())
            precondition(pthread_mutex_init(mutex, nil) == 0, "pthread_mutex_init failed")
        }

        func withLock<Result>(_ body: (inout Table) -> Result) -> Result {
            pthread_mutex_lock(mutex)
            defer { pthread_mutex_unlock(mutex) }
            return body(&table.pointee)
        }
    }
}

import EnsignSupport

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

    private static let table = LockedState(Table())

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
}

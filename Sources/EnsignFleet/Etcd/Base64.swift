/// Standard base64 (RFC 4648, with padding), the encoding etcd's JSON gateway uses for keys
/// and values. Written here so EnsignFleet needs no Foundation.
package enum Base64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
    private static let values: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (index, byte) in alphabet.enumerated() { table[Int(byte)] = UInt8(index) }
        return table
    }()

    /// `bytes` as base64 text.
    package static func encode(_ bytes: some Collection<UInt8>) -> String {
        var output: [UInt8] = []
        output.reserveCapacity((bytes.count + 2) / 3 * 4)
        var iterator = bytes.makeIterator()
        while let first = iterator.next() {
            let second = iterator.next()
            let third = iterator.next()
            let group = UInt32(first) << 16 | UInt32(second ?? 0) << 8 | UInt32(third ?? 0)
            output.append(alphabet[Int(group >> 18 & 63)])
            output.append(alphabet[Int(group >> 12 & 63)])
            output.append(second == nil ? UInt8(ascii: "=") : alphabet[Int(group >> 6 & 63)])
            output.append(third == nil ? UInt8(ascii: "=") : alphabet[Int(group & 63)])
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// The bytes of base64 `text` (padding optional), or `nil` when it is not base64.
    package static func decode(_ text: String) -> [UInt8]? {
        var output: [UInt8] = []
        output.reserveCapacity(text.utf8.count / 4 * 3)
        var group: UInt32 = 0
        var count = 0
        var padding = 0
        for byte in text.utf8 {
            if byte == UInt8(ascii: "=") {
                padding += 1
                continue
            }
            guard padding == 0 else { return nil }
            let value = values[Int(byte)]
            guard value != 0xFF else { return nil }
            group = group << 6 | UInt32(value)
            count += 1
            if count == 4 {
                output.append(UInt8(group >> 16 & 0xFF))
                output.append(UInt8(group >> 8 & 0xFF))
                output.append(UInt8(group & 0xFF))
                group = 0
                count = 0
            }
        }
        switch count {
        case 0: break
        case 2: output.append(UInt8(group >> 4 & 0xFF))
        case 3:
            output.append(UInt8(group >> 10 & 0xFF))
            output.append(UInt8(group >> 2 & 0xFF))
        default: return nil
        }
        guard padding <= 2 else { return nil }
        return output
    }
}

import Testing

@testable import EnsignFleet

@Suite("Base64")
struct Base64Tests {
    @Test("Encodes and decodes RFC 4648's test vectors")
    func vectors() {
        let vectors = [
            "": "", "f": "Zg==", "fo": "Zm8=", "foo": "Zm9v", "foob": "Zm9vYg==", "fooba": "Zm9vYmE=",
            "foobar": "Zm9vYmFy",
        ]
        for (plain, encoded) in vectors {
            #expect(Base64.encode(plain.utf8) == encoded)
            #expect(Base64.decode(encoded) == Array(plain.utf8))
        }
    }

    @Test("Round-trips every byte value")
    func allBytes() {
        let bytes = (0...255).map(UInt8.init)
        #expect(Base64.decode(Base64.encode(bytes)) == bytes)
    }

    @Test("Refuses text that is not base64", arguments: ["a", "Zm9v!", "Zg==Zg==", "Zm9=v"])
    func invalid(text: String) {
        #expect(Base64.decode(text) == nil)
    }
}

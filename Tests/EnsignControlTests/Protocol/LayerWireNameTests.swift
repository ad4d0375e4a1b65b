import Ensign
import Testing

@testable import EnsignControl

@Suite("Layer names on the wire")
struct LayerWireNameTests {
    @Test("Every layer has the protocol's documented name, derived from its description, and reads back")
    func wireNames() {
        #expect(
            ValueLayer.allCases.map(\.wireName) == [
                "codeDefault", "definition", "environment", "deployment", "fleet", "targeting", "preference",
                "override", "scopeOverride",
            ])
        for layer in ValueLayer.allCases { #expect(ValueLayer(wireName: layer.wireName) == layer) }
        #expect(ValueLayer(wireName: "code default") == nil)
    }
}

import EnsignSupport
import Testing

@Suite("Suggestions")
struct SuggestionsTests {
    @Test(
        "Edit distance counts insertions, deletions and substitutions",
        arguments: [
            ("", "", 0), ("", "abc", 3), ("abc", "", 3), ("kitten", "sitting", 3), ("flag", "flags", 1),
            ("percent", "precent", 2), ("équipe", "equipe", 1),
        ] as [(String, String, Int)])
    func editDistance(lhs: String, rhs: String, distance: Int) {
        #expect(Suggestions.editDistance(lhs, rhs) == distance)
        #expect(Suggestions.editDistance(rhs, lhs) == distance)
    }

    @Test("A likely typo gets the closest candidate, ignoring case; a distant word gets none")
    func closest() {
        let candidates = ["default", "variants", "targeting", "state"]
        #expect(Suggestions.closest(to: "Defualt", among: candidates) == "default")
        #expect(Suggestions.closest(to: "varients", among: candidates) == "variants")
        #expect(Suggestions.closest(to: "owner", among: candidates) == nil)
        #expect(Suggestions.didYouMean("stat", among: candidates) == "; did you mean 'state'?")
        #expect(Suggestions.didYouMean("zzz", among: candidates) == "")
    }
}

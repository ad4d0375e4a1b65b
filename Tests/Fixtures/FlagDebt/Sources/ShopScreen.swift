import Ensign

// Scanned by `ensign debt` in the tests, never compiled. `shop.forgottenFlag` and
// .shopForgottenFlag in this comment are not uses.
struct ShopScreen {
    /// A scoped key: read through `context.scope("shop")`, so "pageSize" is defined.
    static let pageSize = FlagKey<Int>("pageSize", default: 20)

    let context: AppContext

    var summary: String {
        let clean = context[.shopCleanFlag]
        let banner = context[.shopOldBanner]
        let orphan = context.value(forKeyNamed: "shop.orphanFlag")
        let checkout = context[.shopNewCheckout]
        let size = context.scope("shop")[Self.pageSize]
        // A comment is skipped: context.value(forKeyNamed: "shop.commentedOut")
        let typo = context.value(forKeyNamed: "shop.pageSise")
        let text = "context.value(forKeyNamed: \"shop.insideAString\")"
        return "\(clean) \(banner) \(orphan ?? .null) \(checkout) \(size) \(typo ?? .null) \(text)"
    }
}

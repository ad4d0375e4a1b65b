import Ensign

/// The wallet's banner, read from the `wallet.banner` object flag (`swiftType: Banner`).
public struct Banner: CodableFlagValue {
    /// The headline.
    public var title: String
    /// Higher shows first.
    public var priority: Int
}

/// What the wallet screen would show, from the wallet's generated keys.
public func walletSummary(_ context: AppContext) -> [String] {
    let banner = context[.walletBanner]
    let style: WalletCurrencyStyle = context[.walletCurrencyStyle]
    return [
        "wallet.showBalance = \(context[.walletShowBalance])",
        "wallet.currencyStyle = \(style) (\(style.rawValue))",
        "wallet.banner = \(banner.title) (priority \(banner.priority))",
        "wallet.limits.daily = \(context[.walletLimits]["daily"]?.intValue ?? -1)",
    ]
}

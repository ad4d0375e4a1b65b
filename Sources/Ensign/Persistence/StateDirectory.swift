import EnsignSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension AppContextConfiguration {
    /// Where an app keeps its preferences and persisted overrides by default: the user's
    /// state home, `$XDG_STATE_HOME/ensign/<app>`, else `~/.local/state/ensign/<app>`.
    ///
    /// Never a shared directory such as `/tmp`: another user could create it first and plant
    /// files or links in it. Ensign creates the directory private (0700) on the first write
    /// and refuses one that is not the user's own, that other users can write to, or that
    /// another user could move or redirect (below their directory or their link: a `HOME`
    /// that `sudo` kept, say). On Apple platforms, pass a directory inside the app's
    /// container (Application Support) instead.
    ///
    /// ```swift
    /// let state = AppContextConfiguration.defaultStateDirectory(forApp: "banking")
    /// var configuration = AppContextConfiguration(
    ///     definitionsDirectory: "flags", preferencesFile: state.map { $0 + "/preferences.yaml" },
    ///     overridesFile: state.map { $0 + "/overrides.yaml" })
    /// ```
    ///
    /// - Returns: the directory, or `nil` when neither `XDG_STATE_HOME` nor a home
    ///   directory is known.
    public static func defaultStateDirectory(forApp app: String) -> String? {
        stateDirectory(
            forApp: app, stateHome: ProcessEnvironment.nonEmptyValue("XDG_STATE_HOME"), home: homeDirectory())
    }

    /// The state directory for the given environment values (empty or relative ones count as
    /// unset, as the XDG specification says).
    static func stateDirectory(forApp app: String, stateHome: String?, home: String?) -> String? {
        if let stateHome, stateHome.hasPrefix("/") { return "\(stateHome)/ensign/\(app)" }
        if let home, home.hasPrefix("/") { return "\(home)/.local/state/ensign/\(app)" }
        return nil
    }

    private static func homeDirectory() -> String? {
        if let home = ProcessEnvironment.nonEmptyValue("HOME") { return home }
        guard let entry = getpwuid(geteuid()), let directory = entry.pointee.pw_dir else { return nil }
        return String(cString: directory)
    }

}

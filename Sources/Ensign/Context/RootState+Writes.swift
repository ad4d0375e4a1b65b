/// The writes of overrides and preferences, with what they do to the persisted files. Run
/// inside a commit (under the writer lock), so the files are changed in commit order.
///
/// The rule is "the latest write to a key wins": a plain override set after a persisted one
/// wins for this run while the file keeps the persisted value for the next start, and
/// removing an override removes it from memory and from the file.
extension RootState {
    /// Sets (or, with `nil`, removes) an override. `file` is the overrides file a persisted
    /// set writes to, and a removal removes the key from.
    mutating func writeOverride(
        _ key: String, _ value: AttributedValue?, section: PersistentOverlayFile.Section,
        file: PersistentOverlayFile?
    ) {
        inputs.overrides[key] = value
        guard let file else { return }
        if let value, value.isPersisted {
            overridesOnDisk[key] = value.value
            overridesWrites.record(key)
            file.update([key: (section, value.value)])
        } else if value == nil, overridesOnDisk[key] != nil {
            overridesOnDisk[key] = nil
            overridesWrites.record(key)
            file.update([key: (section, nil)])
        }
    }

    /// Sets (or removes) the user's value of a preference, and writes it to the preferences
    /// file when there is one.
    mutating func writePreference(_ key: String, _ value: AttributedValue?, file: PersistentOverlayFile?) {
        inputs.preferences[key] = value
        guard let file else { return }
        if let value {
            preferencesOnDisk[key] = value.value
            preferencesWrites.record(key)
            file.update([key: (.preferences, value.value)])
        } else if preferencesOnDisk[key] != nil {
            preferencesOnDisk[key] = nil
            preferencesWrites.record(key)
            file.update([key: (.preferences, nil)])
        }
    }
}

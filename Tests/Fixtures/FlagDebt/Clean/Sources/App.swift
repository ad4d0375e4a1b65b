import Ensign

// Scanned by `ensign debt` in the tests, never compiled.
func isClean(_ context: AppContext) -> Bool {
    context[.shopCleanFlag]
}

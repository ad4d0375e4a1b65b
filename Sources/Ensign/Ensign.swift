// The Ensign library re-exports its YAML layer's location and node types, so an app that
// imports Ensign can read `SourcePosition` from diagnostics and provenance directly.
@_exported import EnsignYAML

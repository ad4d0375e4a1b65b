import EnsignYAML

// The YAML layer stays inside the package: apps see only the two of its types that the
// library's own API hands them, under these names, and never the parser or its node tree.

/// A position in a configuration file: `flags/app.yaml:3:5` (line and column start at 1).
///
/// Diagnostics (``Diagnostic/location``) and provenance (``ValueSource/location``) carry one.
///
/// ```swift
/// let location = context.details(for: .pageSize).source.location
/// print(location?.description ?? "no file")  // flags/environments/staging.yaml:2:27
/// ```
public typealias SourcePosition = EnsignYAML.SourcePosition

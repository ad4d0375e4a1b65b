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

/// Bounds on the files a context reads — size, nesting depth, alias expansion — so a hostile or
/// broken file is refused with a clear error instead of exhausting memory.
///
/// ```swift
/// var configuration = AppContextConfiguration(definitionsDirectory: "flags", environment: "production")
/// configuration.limits.maximumFileSize = 1 << 20
/// ```
public typealias YAMLLimits = EnsignYAML.YAMLLimits

import EnsignYAML

/// One key's resolution in a snapshot: the winning value (or `nil` for "the code default"),
/// with its variant, reason, error and source.
///
/// A snapshot holds one entry per key, so the layout is compact (56 bytes, down from 104):
/// the source's layer and position are stored inline as small integers, and what few entries
/// have (an error message, an override's actor and time, a position that names no file) is
/// kept behind one optional reference.
struct ResolvedEntry: Sendable, Equatable {
    var value: JSONValue?
    var reason: ResolutionReason
    var errorCode: ResolutionErrorCode?
    /// The source's layer, stored apart so that checking it builds no ``ValueSource``.
    let layer: ValueLayer
    /// The source's file position; ``CompactSourcePosition/none`` when it has no known one.
    private let position: CompactSourcePosition
    var variant: String?
    /// The rarely present parts.
    private var rare: Rare?

    /// What most entries do not have, out of line.
    private final class Rare: Sendable, Equatable {
        let errorMessage: String?
        let actor: String?
        let time: WallClockTime?
        /// A position kept as given: one for a value from no file (`SourcePosition.unknown`).
        let location: SourcePosition?

        init(errorMessage: String?, actor: String?, time: WallClockTime?, location: SourcePosition?) {
            self.errorMessage = errorMessage
            self.actor = actor
            self.time = time
            self.location = location
        }

        static func == (lhs: Rare, rhs: Rare) -> Bool {
            lhs.errorMessage == rhs.errorMessage && lhs.actor == rhs.actor && lhs.time == rhs.time
                && lhs.location == rhs.location
        }
    }

    init(
        value: JSONValue?, variant: String?, reason: ResolutionReason, errorCode: ResolutionErrorCode?,
        errorMessage: String?, source: ValueSource
    ) {
        self.value = value
        self.variant = variant
        self.reason = reason
        self.errorCode = errorCode
        layer = source.layer
        // An unknown position (a label such as `<values>`, line 0) is rare: kept whole, out of line.
        let isKnown = source.location?.isKnown ?? false
        position = isKnown ? source.location.map(CompactSourcePosition.init) ?? .none : .none
        let unknownLocation = isKnown ? nil : source.location
        if errorMessage != nil || source.actor != nil || source.time != nil || unknownLocation != nil {
            rare = Rare(errorMessage: errorMessage, actor: source.actor, time: source.time, location: unknownLocation)
        } else {
            rare = nil
        }
    }

    /// Why the key could not be resolved normally, in words.
    var errorMessage: String? {
        get { rare?.errorMessage }
        set {
            rare = Rare(errorMessage: newValue, actor: rare?.actor, time: rare?.time, location: rare?.location)
        }
    }

    /// Where the value came from.
    var source: ValueSource {
        ValueSource(
            layer: layer, location: position.isKnown ? position.sourcePosition : rare?.location, actor: rare?.actor,
            time: rare?.time)
    }

    static let notFound = ResolvedEntry(
        value: nil, variant: nil, reason: .error, errorCode: .flagNotFound,
        errorMessage: "no definitions file defines this key", source: .codeDefault)

    /// Whether two entries would read the same to an observer (value and variant).
    func hasSameValue(as other: ResolvedEntry) -> Bool {
        value == other.value && variant == other.variant
    }

    static func == (lhs: ResolvedEntry, rhs: ResolvedEntry) -> Bool {
        lhs.value == rhs.value && lhs.variant == rhs.variant && lhs.reason == rhs.reason
            && lhs.errorCode == rhs.errorCode && lhs.layer == rhs.layer && lhs.position == rhs.position
            && lhs.rare == rhs.rare
    }
}

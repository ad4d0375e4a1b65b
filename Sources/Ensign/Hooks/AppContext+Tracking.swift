extension AppContext {
    /// An outcome the app records, such as a purchase or a completed sign-up, with the
    /// evaluation context it happened in (OpenFeature's tracking, its specification's section 6).
    public struct TrackingEvent: Sendable, Equatable {
        /// What happened: `checkout.completed`.
        public var name: String
        /// A number that goes with it (an amount, a duration), when there is one.
        public var value: Double?
        /// The app's details about it.
        public var attributes: [String: JSONValue]
        /// The evaluation context of the context it was tracked through, merged over its
        /// ancestors': the targeting key and attributes the flags were evaluated for.
        public var evaluationContext: EvaluationContext
        /// The label of the context it was tracked through (OpenFeature's client name).
        public var clientName: String
        /// When it was tracked.
        public var time: WallClockTime

        /// An event; `time` is now by default.
        public init(
            name: String, value: Double? = nil, attributes: [String: JSONValue] = [:],
            evaluationContext: EvaluationContext = .empty, clientName: String = "",
            time: WallClockTime = .now()
        ) {
            self.name = name
            self.value = value
            self.attributes = attributes
            self.evaluationContext = evaluationContext
            self.clientName = clientName
            self.time = time
        }
    }

    /// Records an outcome: every hook that runs for reads through this context (the root's,
    /// then each child's down to this one) receives it in ``EvaluationHook/track(_:)``, with
    /// this context's evaluation context attached. A telemetry hook exports it beside the
    /// evaluations, so that "did the new flow sell more?" is one query.
    ///
    /// ```swift
    /// context.track("checkout.completed", value: 42.5, attributes: ["currency": "EUR"])
    /// ```
    ///
    /// With no hook registered this does nothing. Hooks run on the calling thread.
    public func track(_ name: String, value: Double? = nil, attributes: [String: JSONValue] = [:]) {
        guard hookSwitch.isOn else { return }
        let hooks = registeredHooks()
        guard !hooks.isEmpty else { return }
        let event = TrackingEvent(
            name: name, value: value, attributes: attributes,
            evaluationContext: store.withSnapshot { $0.evaluationContext }, clientName: label)
        for hook in hooks { hook.track(event) }
    }

    /// Forgets the exposures the tree has recorded: the next evaluation of each result runs
    /// the exposure hooks again (a new session, such as a sign-in, in an app that counts
    /// exposures per session).
    public func resetExposures() {
        store.tree.exposures.removeAll()
    }
}

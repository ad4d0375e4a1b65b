import Ensign

/// What `/readyz` says: ready when the flags are loaded and the fleet layer (if any) is
/// reachable or has been unreachable for less than the grace period, and the server is not
/// shutting down; with the limits the server runs with and what it holds now.
struct Readiness {
    let isReady: Bool
    let json: JSONValue

    init(core: ServerCore) {
        let status = core.service.context.status
        var problems: [String] = []
        if core.isDraining { problems.append("the server is shutting down") }
        var fleetMembers: [String: JSONValue]?
        if let fleet = status.fleet {
            fleetMembers = [
                "source": .string(fleet.source), "reachable": .bool(fleet.isReachable),
                "revision": .int(Int(fleet.revision)),
            ]
            if !fleet.isReachable {
                // Unreachable since the moment it was lost, or since the start when never reached.
                let unreachableFor: Duration
                if let since = fleet.since {
                    let seconds = max(0, WallClockTime.now().secondsSince1970 - since.secondsSince1970)
                    unreachableFor = .milliseconds(Int64(seconds * 1000))
                } else {
                    unreachableFor = ContinuousClock.now - core.startedAt
                }
                if unreachableFor >= core.options.fleetGracePeriod {
                    problems.append(
                        "the fleet store has been unreachable for over \(core.options.fleetGracePeriod)"
                            + " (\(fleet.lastError ?? "no answer"))")
                }
            }
        }
        isReady = problems.isEmpty
        let occupancy = core.table.occupancy
        var members: [String: JSONValue] = [
            "status": .string(isReady ? "ready" : "not ready"),
            "flags": .int(core.service.context.definitions.count),
            "degraded": .bool(status.isDegraded),
            "limits": [
                "connections": .int(core.limits.connections), "eventStreams": .int(core.limits.eventStreams),
                "descriptors": .int(core.limits.descriptors), "workerThreads": .int(core.limits.workerThreads),
            ],
            "open": ["connections": .int(occupancy.open), "eventStreams": .int(occupancy.streaming)],
        ]
        if !problems.isEmpty { members["problems"] = .array(problems.map(JSONValue.string)) }
        if let fleetMembers { members["fleet"] = .object(fleetMembers) }
        json = .object(members)
    }
}

import Ensign

/// `/metrics`: everything an operator graphs, in the Prometheus text format, read fresh on each
/// scrape.
///
/// | family | what |
/// |---|---|
/// | `ensign_serve_requests_total{endpoint,status}` | requests answered |
/// | `ensign_serve_evaluations_total{flag,variant,reason}` | flags evaluated (single and bulk) |
/// | `ensign_flag_evaluations_total{key,variant,reason}` | the context's evaluation counts (`ensign stats`) |
/// | `ensign_serve_connections{state}` | open connections: idle, reading_headers, busy, streaming |
/// | `ensign_serve_connection_limit`, `ensign_serve_event_stream_limit` | the limits in force |
/// | `ensign_serve_refused_connections_total`, `ensign_serve_refused_event_streams_total` | refusals |
/// | `ensign_serve_closed_connections_total{reason}` | connections the server cut |
/// | `ensign_serve_dropped_events_total`, `ensign_serve_change_announcements_total` | the event stream |
/// | `ensign_reloads_total`, `ensign_reload_failures_total`, `ensign_degraded`, `ensign_flags` | the context |
/// | `ensign_fleet_reachable`, `ensign_fleet_revision` | the fleet layer, when there is one |
/// | `process_resident_memory_bytes`, `process_open_fds`, `process_max_fds`, `process_threads` | the process |
struct MetricsExposition {
    let text: String

    init(core: ServerCore) {
        var out = PrometheusText()
        let counts = core.metrics.snapshot
        out.family(
            "ensign_serve_requests_total", .counter, help: "Requests answered, by endpoint and status code.",
            samples: counts.requests.sorted {
                ($0.key.endpoint.rawValue, $0.key.status) < ($1.key.endpoint.rawValue, $1.key.status)
            }
            .map { ([("endpoint", $0.key.endpoint.rawValue), ("status", String($0.key.status))], Double($0.value)) })
        out.family(
            "ensign_serve_evaluations_total", .counter,
            help: "Flags evaluated for requests (single and bulk), by flag, variant and reason.",
            samples: counts.evaluations.sorted {
                ($0.key.flag, $0.key.variant, $0.key.reason) < ($1.key.flag, $1.key.variant, $1.key.reason)
            }
            .map {
                ([("flag", $0.key.flag), ("variant", $0.key.variant), ("reason", $0.key.reason)], Double($0.value))
            })
        // Bounded: keys come from the definitions (an undefined key is counted in no series),
        // variants from the flags' variants, reasons from a closed set.
        out.family(
            "ensign_flag_evaluations_total", .counter,
            help: "Evaluations through the context since the server started, by key, variant and reason"
                + " (variant empty for a value without one).",
            samples: Self.flagEvaluationSamples(core.evaluations.counts))
        let occupancy = core.table.occupancy
        out.family(
            "ensign_serve_connections", .gauge, help: "Open connections, by what they are doing.",
            samples: [
                ([("state", "idle")], Double(occupancy.idle)),
                ([("state", "reading_headers")], Double(occupancy.readingHeaders)),
                ([("state", "busy")], Double(occupancy.busy)),
                ([("state", "streaming")], Double(occupancy.streaming)),
            ])
        out.family(
            "ensign_serve_connection_limit", .gauge, help: "The most connections open at once.",
            value: Double(core.limits.connections))
        out.family(
            "ensign_serve_event_stream_limit", .gauge, help: "The most event streams open at once.",
            value: Double(core.limits.eventStreams))
        let counters = core.table.counters
        out.family(
            "ensign_serve_refused_connections_total", .counter,
            help: "Connections refused at accept: at the limit with none idle to reclaim.",
            value: Double(counters.refusedAtLimit))
        out.family(
            "ensign_serve_refused_event_streams_total", .counter,
            help: "Event streams refused (503) at the event-stream limit or while shutting down.",
            value: Double(core.hub.refusedCount))
        out.family(
            "ensign_serve_closed_connections_total", .counter, help: "Connections the server closed, by reason.",
            samples: [
                ([("reason", "idle_timeout")], Double(counters.idleTimeouts)),
                ([("reason", "header_timeout")], Double(counters.headerTimeouts)),
                ([("reason", "request_timeout")], Double(counters.requestTimeouts)),
                ([("reason", "reclaimed")], Double(counters.reclaimed)),
                ([("reason", "draining")], Double(counters.drained)),
                ([("reason", "stalled_stream")], Double(counters.stalledStreams)),
            ])
        out.family(
            "ensign_serve_dropped_events_total", .counter,
            help: "Events dropped for event-stream clients that read too slowly (a newer event replaced them).",
            value: Double(core.hub.droppedEventCount))
        out.family(
            "ensign_serve_change_announcements_total", .counter,
            help: "Configuration changes announced to the event streams.", value: Double(core.hub.announcementCount))
        let context = core.service.context
        let reloads = context.reloadCounts
        let status = context.status
        out.family(
            "ensign_reloads_total", .counter, help: "Times the files were read again.", value: Double(reloads.reloads))
        out.family(
            "ensign_reload_failures_total", .counter,
            help: "Reloads that failed in some part (the last good values stayed in force).",
            value: Double(reloads.failures))
        out.family(
            "ensign_degraded", .gauge,
            help: "1 when the last reload failed or the fleet layer is degraded, else 0.",
            value: status.isDegraded ? 1 : 0)
        out.family("ensign_flags", .gauge, help: "Keys defined.", value: Double(context.definitions.count))
        if let fleet = status.fleet {
            out.family(
                "ensign_fleet_reachable", .gauge, help: "1 while the fleet store (etcd) is reachable, else 0.",
                value: fleet.isReachable ? 1 : 0)
            out.family(
                "ensign_fleet_revision", .gauge, help: "The store revision the fleet layer reflects.",
                value: Double(fleet.revision))
        }
        if let process = ProcessStatistics.current() {
            out.family(
                "process_resident_memory_bytes", .gauge, help: "Resident memory size in bytes.",
                value: Double(process.residentBytes))
            out.family(
                "process_open_fds", .gauge, help: "Number of open file descriptors.",
                value: Double(process.openDescriptors))
            out.family(
                "process_max_fds", .gauge, help: "Maximum number of open file descriptors.",
                value: Double(core.limits.descriptors))
            out.family("process_threads", .gauge, help: "Number of threads.", value: Double(process.threads))
        }
        text = out.text
    }

    /// One sample per key, variant and reason, sorted. Bounded: keys come from the definitions
    /// (an undefined key is counted in no series), variants from the flags' variants, reasons
    /// from a closed set.
    private static func flagEvaluationSamples(
        _ counts: AppContext.EvaluationCounts
    ) -> [(labels: [(String, String)], value: Double)] {
        var samples: [(labels: [(String, String)], value: Double)] = []
        for (key, keyCounts) in counts.keys.sorted(by: { $0.key < $1.key }) {
            let outcomes = keyCounts.outcomes.map {
                (variant: $0.key.variant ?? "", reason: $0.key.reason.rawValue, count: $0.value)
            }
            for outcome in outcomes.sorted(by: { ($0.variant, $0.reason) < ($1.variant, $1.reason) }) {
                samples.append(
                    ([("key", key), ("variant", outcome.variant), ("reason", outcome.reason)], Double(outcome.count)))
            }
        }
        return samples
    }
}

import Ensign

/// The results of a run, printed for people (an aligned table) or for tools (one JSON object).
struct Report {
    var results: [EntryResult]
    var settings: RunSettings
    var allocationCounting: Bool

    // MARK: Table

    var table: String {
        let header = ["entry", "min", "median", "allocs/op", "reference", "ratio", "target", "verdict"]
        let rightAligned: Set = [1, 2, 3, 5]
        var rows: [[String]?] = []
        var group: String?
        for result in results {
            if result.group != group {
                if group != nil { rows.append(nil) }
                rows.append([result.group])
                group = result.group
            }
            rows.append(cells(of: result))
        }
        var widths = header.map(\.count)
        for case let row? in rows where row.count == header.count {
            for (index, cell) in row.enumerated() { widths[index] = max(widths[index], cell.count) }
        }
        func line(_ cells: [String]) -> String {
            var text = cells.enumerated().map { index, cell in
                let padding = String(repeating: " ", count: widths[index] - cell.count)
                return rightAligned.contains(index) ? padding + cell : cell + padding
            }.joined(separator: "  ")
            while text.last == " " { text.removeLast() }
            return text
        }
        var lines = [preamble, "", line(header), String(repeating: "-", count: widths.reduce(0, +) + 2 * 7)]
        for row in rows {
            guard let row else {
                lines.append("")
                continue
            }
            lines.append(row.count == header.count ? line(row) : row[0])
        }
        let notes = results.compactMap { result in result.note.map { "  \(result.group) / \(result.id): \($0)" } }
        if !notes.isEmpty { lines += ["", "notes:"] + notes }
        lines += ["", summary]
        return lines.joined(separator: "\n")
    }

    private func cells(of result: EntryResult) -> [String] {
        let isMemory = result.unit != .nanosecondsPerOperation
        return [
            "  " + result.name,
            Figures.figure(result.minimum, unit: result.unit),
            Figures.figure(result.median, unit: result.unit),
            isMemory ? "" : Figures.allocations(result.allocationsPerOperation),
            result.reference ?? "",
            result.ratio.map(Figures.ratio) ?? "",
            result.target?.summary ?? "",
            result.verdict?.label ?? "",
        ]
    }

    private var preamble: String {
        let mode = settings.isQuick ? "quick run" : "full run"
        let counting =
            allocationCounting
            ? "counted by interposing malloc (self-test: a 1,000-element [Int] counted "
                + "\(AllocationCounter.selfTest ?? 0))"
            : "n/a (not counted on this platform)"
        return """
            Ensign \(EnsignVersion.current) benchmarks: \(mode), \(settings.rounds) rounds per entry after a warm-up
            min, median: time per operation (memory: resident bytes) over the rounds
            allocs/op: \(counting)
            ratio: min ÷ the reference's min, in the same run, rounds interleaved; targets are checked
                   against minimums, which other load on a shared machine disturbs least
            """
    }

    private var summary: String {
        let verdicts = results.compactMap(\.verdict)
        guard !verdicts.isEmpty else { return "targets: none among the entries run" }
        let passed = verdicts.filter { if case .pass = $0 { return true } else { return false } }.count
        let aims = verdicts.filter { $0 == .pass(aimMet: true) }.count
        let missed = results.filter { $0.verdict == .miss }.map { "\($0.group) / \($0.name)" }
        var text = "targets: \(passed) of \(verdicts.count) met (\(aims) also meet the aim)"
        if !missed.isEmpty { text += "; missed: " + missed.joined(separator: ", ") }
        return text
    }

    // MARK: JSON

    var json: JSONValue {
        .object([
            "version": .string(EnsignVersion.current),
            "quick": .bool(settings.isQuick),
            "rounds": .int(settings.rounds),
            "allocationCounting": .bool(allocationCounting),
            "allocationSelfTest": AllocationCounter.selfTest.map { .int(Int($0)) } ?? .null,
            "entries": .array(results.map(Self.json)),
        ])
    }

    private static func json(_ result: EntryResult) -> JSONValue {
        var members: [String: JSONValue] = [
            "group": .string(result.group),
            "id": .string(result.id),
            "name": .string(result.name),
            "unit": .string(result.unit.rawValue),
            "iterations": .int(result.iterations),
            "samples": .array(result.samples.map(JSONValue.double)),
        ]
        members["min"] = result.minimum.map(JSONValue.double)
        members["median"] = result.median.map(JSONValue.double)
        members["allocationsPerOperation"] = result.allocationsPerOperation.map(JSONValue.double)
        members["reference"] = result.reference.map(JSONValue.string)
        members["ratio"] = result.ratio.map(JSONValue.double)
        members["medianRatio"] = result.medianRatio.map(JSONValue.double)
        members["note"] = result.note.map(JSONValue.string)
        if let target = result.target {
            var targetMembers: [String: JSONValue] = [
                "measure": .string(target.measure.rawValue), "limit": .double(target.limit),
                "summary": .string(target.summary),
            ]
            targetMembers["aim"] = target.aim.map(JSONValue.double)
            targetMembers["maximumAllocationsPerOperation"] = target.maximumAllocationsPerOperation.map(
                JSONValue.double)
            members["target"] = .object(targetMembers)
        }
        if let verdict = result.verdict {
            switch verdict {
            case .pass(let aimMet):
                members["verdict"] = .string("PASS")
                members["aimMet"] = .bool(aimMet)
            case .miss: members["verdict"] = .string("MISS")
            case .unmeasured: members["verdict"] = .string("n/a")
            }
        }
        return .object(members)
    }
}

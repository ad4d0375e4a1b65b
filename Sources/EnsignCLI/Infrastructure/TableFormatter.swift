/// Formats rows as aligned columns; the last column is never padded.
struct TableFormatter {
    var header: [String]
    var rows: [[String]] = []

    init(header: [String]) {
        self.header = header
    }

    mutating func add(_ row: [String]) {
        rows.append(row)
    }

    /// The table as lines, the header styled bold when `console` uses colour.
    func lines(console: Console) -> [String] {
        var widths = header.map(\.count)
        for row in rows {
            for (index, cell) in row.enumerated() where index < widths.count {
                widths[index] = max(widths[index], cell.count)
            }
        }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { index, cell in
                index == cells.count - 1 ? cell : cell.padding(to: widths[index])
            }.joined(separator: "  ")
        }
        return [console.styled(line(header), .bold)] + rows.map(line)
    }
}

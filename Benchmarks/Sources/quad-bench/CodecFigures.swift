import CodecCompare

/// Benchmark 3: package-benchmark's markdown output (per-round-trip p50 wall clock and mallocs) joined with the
/// encoded sizes, which this process computes with the same `CodecCase` code.
struct CodecFigures {
    struct Entry: Sendable {
        var bytes: Int
        var p50Ns: Double?
        var mallocs: Double?
    }

    /// message → codec → entry
    var entries: [String: [Codec: Entry]] = [:]
    var messages: [String] = []

    init(benchmarkMarkdown: String?) throws {
        for codecCase in CodecCase.all {
            if !messages.contains(codecCase.message) { messages.append(codecCase.message) }
            entries[codecCase.message, default: [:]][codecCase.codec] = Entry(bytes: try codecCase.roundTrip())
        }
        guard let benchmarkMarkdown else { return }
        var current: (String, Codec)?
        for line in benchmarkMarkdown.split(separator: "\n") {
            if line.hasPrefix("### ") {
                let words = line.dropFirst(4).split(separator: " ")
                current = words.count == 2 ? Codec(rawValue: String(words[1])).map { (String(words[0]), $0) } : nil
                continue
            }
            guard let (message, codec) = current, line.hasPrefix("|") else { continue }
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 4, let p50 = Double(cells[3]) else { continue }
            let value = p50 * Self.multiplier(cells[0])
            if cells[0].hasPrefix("Time (wall clock)") { entries[message]?[codec]?.p50Ns = value }
            if cells[0].hasPrefix("Malloc (total)") { entries[message]?[codec]?.mallocs = value }
        }
    }

    /// Units in the metric name: (ns) (μs) (ms) for time, (K) (M) for counts.
    static func multiplier(_ metric: String) -> Double {
        if metric.contains("(μs)") || metric.contains("(us)") { return 1e3 }
        if metric.contains("(ms)") { return 1e6 }
        if metric.contains("(K)") { return 1e3 }
        if metric.contains("(M)") { return 1e6 }
        return 1
    }
}

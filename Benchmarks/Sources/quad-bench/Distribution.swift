/// Samples in nanoseconds, sorted once; percentiles by nearest rank.
struct Distribution: Sendable {
    let sortedNs: [Int64]

    init(_ samplesNs: [Int64]) { sortedNs = samplesNs.sorted() }

    var count: Int { sortedNs.count }
    var maxNs: Int64 { sortedNs.last ?? 0 }
    var minNs: Int64 { sortedNs.first ?? 0 }

    /// p in 0…100.
    func percentileNs(_ p: Double) -> Int64 {
        guard !sortedNs.isEmpty else { return 0 }
        let rank = Int((p / 100 * Double(sortedNs.count)).rounded(.up))
        return sortedNs[min(max(rank, 1), sortedNs.count) - 1]
    }

    var meanNs: Double {
        sortedNs.isEmpty ? 0 : Double(sortedNs.reduce(0, +)) / Double(sortedNs.count)
    }

    func countAbove(_ thresholdNs: Int64) -> Int { sortedNs.count { $0 > thresholdNs } }
}

/// Human units for the report.
enum Units {
    static func ms(_ ns: Int64, digits: Int = 2) -> String { fixed(Double(ns) / 1e6, digits) + " ms" }
    static func us(_ ns: Int64) -> String { fixed(Double(ns) / 1e3, 0) + " µs" }

    /// Below 1 ms in µs, otherwise in ms.
    static func auto(_ ns: Int64) -> String { abs(ns) < 1_000_000 ? us(ns) : ms(ns) }

    static func fixed(_ value: Double, _ digits: Int) -> String {
        guard value.isFinite else { return "\(value)" }
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let rounded = (abs(value) * scale).rounded() / scale
        let whole = Int(rounded)
        var text = (value < 0 && rounded > 0 ? "-" : "") + String(whole)
        if digits > 0 {
            let fraction = Int(((rounded - Double(whole)) * scale).rounded())
            let digitsText = String(fraction)
            text += "." + String(repeating: "0", count: max(0, digits - digitsText.count)) + digitsText
        }
        return text
    }
}

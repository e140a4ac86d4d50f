/// Rate limit for connection-problem lines: the first at once, then one every `repeatAfterS` while it lasts
/// (a broker that is down must show up in the log within a second, but not 1–2 lines a second for hours).
struct ConnectionTrouble {
    static let repeatAfterS = 10.0

    private(set) var firstS: Double?
    private var lastReportS: Double?
    /// A probe is running (at most one at a time).
    var probing = false
    /// The broker answered with a refusal since the last CONNACK: the TCP probe has nothing to add.
    var refusedByBroker = false

    var reported: Bool { lastReportS != nil }

    func probeDue(nowS: Double) -> Bool {
        !probing && (lastReportS.map { nowS - $0 >= Self.repeatAfterS } ?? true)
    }

    /// The line to log for `text` now, or nil while rate-limited.
    mutating func report(_ text: String, nowS: Double) -> String? {
        let first = firstS ?? nowS
        firstS = first
        if let last = lastReportS, nowS - last < Self.repeatAfterS { return nil }
        defer { lastReportS = nowS }
        guard lastReportS != nil else { return "\(text); retrying every 0.5–1 s" }
        return "still: \(text) (for \(Int(nowS - first)) s)"
    }
}

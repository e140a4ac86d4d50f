/// The fleet benchmark on one broker: its figures, or why there are none (a broker not installed, a cluster that did
/// not form, a run that failed). A cluster's trouble is its report row, never the whole bench's failure.
struct FleetRun: Sendable {
    static let mosquitto = "Mosquitto"

    var broker: String
    var result: FleetBench.Result?
    /// "not run: …" or "failed: …" when `result` is nil.
    var notRun: String?

    var isMosquitto: Bool { broker == Self.mosquitto }
}

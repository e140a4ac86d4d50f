import MAVLink

/// Keeps the autopilot's current mission item at the board's (MISSION_SET_CURRENT), so the autopilot's copy of the
/// plan, if it is ever put in its mission mode (the board dead), flies on from the item the board was flying to and
/// neither skips one nor flies one twice. Pure: the wanted and the reported item in, a message out when they differ.
/// Sent again every `retryUs` while the autopilot's MISSION_CURRENT says another item, at most `maxAttempts` times
/// for one wanted item (then said once, and left: the board still flies its own plan).
struct MissionCurrentSync: Sendable, Equatable {
    static let retryUs: Int64 = 1_000_000
    static let maxAttempts = 5

    /// The autopilot's number of the item the board flies to now; nil: none (no plan in place, or finished).
    private(set) var wantedSeq: Int?
    /// The autopilot's MISSION_CURRENT seq, as last reported.
    private(set) var reportedSeq: Int?
    private var lastSentUs: Int64 = .min / 2
    private var attempts = 0
    private var gaveUp = false

    enum Output: Equatable {
        case send(MissionSetCurrent)
        case log(String)
    }

    mutating func want(_ seq: Int?) {
        guard seq != wantedSeq else { return }
        wantedSeq = seq
        attempts = 0
        gaveUp = false
        lastSentUs = .min / 2
    }

    mutating func reported(_ current: MissionCurrent) { reportedSeq = Int(current.seq) }

    /// When the next send may be due; nil when nothing is.
    var dueUs: Int64? {
        guard let wantedSeq, wantedSeq != reportedSeq, !gaveUp else { return nil }
        return lastSentUs &+ Self.retryUs
    }

    mutating func tick(nowUs: Int64, target: (system: UInt8, component: UInt8)?) -> [Output] {
        guard let target, let wantedSeq, let due = dueUs, nowUs >= due else { return [] }
        guard attempts < Self.maxAttempts else {
            gaveUp = true
            return [.log("autopilot mission: the autopilot's current item stays \(reportedSeq.map(String.init) ?? "?")"
                + " after \(attempts) requests for \(wantedSeq): its copy would not start where the board is")]
        }
        attempts += 1
        lastSentUs = nowUs
        return [.send(MissionSetCurrent(seq: UInt16(clamping: wantedSeq), targetSystem: target.system,
                                        targetComponent: target.component))]
    }
}

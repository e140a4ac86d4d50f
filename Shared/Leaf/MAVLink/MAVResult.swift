/// MAV_RESULT.
public enum MAVResult: UInt8, Sendable, CaseIterable, CustomStringConvertible {
    case accepted = 0, temporarilyRejected = 1, denied = 2, unsupported = 3, failed = 4, inProgress = 5
    case cancelled = 6

    public var description: String {
        switch self {
        case .accepted: "accepted"
        case .temporarilyRejected: "temporarily-rejected"
        case .denied: "denied"
        case .unsupported: "unsupported"
        case .failed: "failed"
        case .inProgress: "in-progress"
        case .cancelled: "cancelled"
        }
    }
}

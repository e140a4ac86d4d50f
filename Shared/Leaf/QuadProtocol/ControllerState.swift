/// What the flight controller is doing and why. Topic `quad/<id>/telemetry/controller` (retained).
public struct ControllerState: WireMessage {
    public static let messageType = MessageType.controllerState

    public enum Activity: UInt8, Sendable, CaseIterable {
        case landed = 1
        case takingOff = 2
        case hovering = 3
        case flyingToTarget = 4
        case arrived = 5
        case landing = 6
        case emergency = 7
        case returningHome = 8
        /// Not established (1.4): a controller that started and has had no navdata yet does not know whether the
        /// drone flies, and says so rather than "landed" (a restarted controller's false "landed" about a flying
        /// drone released a script waiting for the landing).
        case unknown = 9

        /// The format minor that introduced the value: a payload of an older minor cannot carry it.
        public var introducedInMinor: UInt8 { self == .unknown ? 4 : 0 }
    }

    public var sequence: UInt32
    public var timestampUs: Int64
    public var activity: Activity
    /// Why the last change or refusal (`Reason`; on the wire its code, e.g. `arrived`, `stale-navigation`,
    /// `geofence`, `battery-low`, `pilot-lost`; at most 64 bytes, empty when none).
    public var reason: Reason
    /// The sender id of the broadcaster holding control; empty when nobody does.
    public var pilotId: String
    public var targetLatitudeDeg: Double?
    public var targetLongitudeDeg: Double?
    public var distanceToTargetM: Float?
    /// This run of the controller: random, non-zero, new at every start; senders address commands, claims and
    /// targets to it. 0 = none (a 1.0/1.1 controller). Format 1.2.
    public var runId: UInt32
    /// The sequence of the target the controller holds (1.3; 0 = none, or a 1.0–1.2 controller): a navigator that
    /// restarted takes the target from this state and answers with solutions the controller recognises.
    public var targetSequence: UInt32

    public init(sequence: UInt32, timestampUs: Int64, activity: Activity, reason: Reason = .unspecified,
                pilotId: String = "",
                targetLatitudeDeg: Double? = nil, targetLongitudeDeg: Double? = nil, distanceToTargetM: Float? = nil,
                runId: UInt32 = RunAddress.none, targetSequence: UInt32 = 0) {
        self.sequence = sequence
        self.timestampUs = timestampUs
        self.activity = activity
        self.reason = reason
        self.pilotId = pilotId
        self.targetLatitudeDeg = targetLatitudeDeg
        self.targetLongitudeDeg = targetLongitudeDeg
        self.distanceToTargetM = distanceToTargetM
        self.runId = runId
        self.targetSequence = targetSequence
    }
}

import Navigation
import QuadProtocol

/// `location-broadcaster follow`: publishes the operator's own GPS position as the drone's target every interval.
/// Only a good, fresh fix is ever published; while there is none it reports "no fix, keeping last target" and
/// publishes nothing, so the drone keeps flying to (or holding at) the last good target.
public struct FollowStateMachine: Sendable {
    public struct Configuration: Sendable, Equatable {
        public var senderId: String
        public var publishIntervalUs: Int64
        /// A fix not renewed by gpsd within this time is treated as lost.
        public var maxFixAgeS: Double
        /// Also judge freshness by the fix's own time against the caller's clock. Off for replays (gpsfake) whose
        /// timestamps lie in the past.
        public var checkFixTime: Bool
        /// Fixes whose horizontal error is larger are not used; nil = accept any.
        public var maxHorizontalErrorM: Double?
        /// Sent as `Target.ttlS` so the drone drops the target if the broadcaster goes quiet.
        public var targetTTLS: Float
        public var targetAltitudeM: Float?

        public init(senderId: String, publishIntervalUs: Int64 = 1_000_000, maxFixAgeS: Double = 3,
                    checkFixTime: Bool = true, maxHorizontalErrorM: Double? = 50, targetTTLS: Float = 5,
                    targetAltitudeM: Float? = nil) {
            self.senderId = senderId
            self.publishIntervalUs = max(1, publishIntervalUs)
            self.maxFixAgeS = maxFixAgeS
            self.checkFixTime = checkFixTime
            self.maxHorizontalErrorM = maxHorizontalErrorM
            self.targetTTLS = targetTTLS
            self.targetAltitudeM = targetAltitudeM
        }
    }

    public enum Action: Sendable, Equatable {
        case publishTarget(Target)
        /// Entered "no usable fix": nothing is published until a good fix returns. `lastTarget` is what the drone
        /// keeps (nil before the first fix).
        case reportNoFix(reason: NoFixReason, lastTarget: GeoPoint?)
        /// A good fix is back after a gap (or the first one arrived).
        case reportFixAcquired(GeoPoint)
    }

    public enum NoFixReason: Sendable, Equatable {
        case noFixYet
        case gpsd(GPSFixStatus.NoFixReason)
        case stale
        case inaccurate(horizontalErrorM: Double)
    }

    private enum Health: Equatable { case unknown, good, lost(NoFixReason) }

    public let configuration: Configuration
    private var latest: (fix: GPSFix, receivedAtUs: Int64)?
    private var health: Health = .unknown
    private var lastPublishUs: Int64?
    private var lastTarget: GeoPoint?
    private var sequence: UInt32 = 0

    public init(configuration: Configuration) {
        self.configuration = configuration
    }

    public mutating func fix(_ fix: GPSFix, nowUs: Int64) -> [Action] {
        if let error = fix.horizontalErrorM, let limit = configuration.maxHorizontalErrorM, error > limit {
            latest = nil
            return enterLost(.inaccurate(horizontalErrorM: error))
        }
        latest = (fix, nowUs)
        return tick(nowUs: nowUs)
    }

    public mutating func noFix(_ reason: GPSFixStatus.NoFixReason, nowUs: Int64) -> [Action] {
        latest = nil
        return enterLost(.gpsd(reason))
    }

    /// Call often (at least once per interval); publishes when a good fix is at hand and the interval has passed.
    public mutating func tick(nowUs: Int64) -> [Action] {
        guard let (fix, receivedAtUs) = latest else {
            return health == .unknown ? enterLost(.noFixYet) : []
        }
        let receiptAgeS = Double(nowUs &- receivedAtUs) / 1_000_000
        if receiptAgeS > configuration.maxFixAgeS
            || (configuration.checkFixTime && fix.isStale(nowUs: nowUs, maxAgeS: configuration.maxFixAgeS))
        {
            latest = nil
            return enterLost(.stale)
        }
        var actions: [Action] = []
        let position = GeoPoint(latitudeDeg: fix.latitudeDeg, longitudeDeg: fix.longitudeDeg)
        if health != .good {
            health = .good
            actions.append(.reportFixAcquired(position))
        }
        if let last = lastPublishUs, nowUs &- last < configuration.publishIntervalUs, nowUs >= last {
            return actions
        }
        sequence &+= 1
        lastPublishUs = nowUs
        lastTarget = position
        actions.append(.publishTarget(Target(
            senderId: configuration.senderId, sequence: sequence, timestampUs: nowUs,
            latitudeDeg: fix.latitudeDeg, longitudeDeg: fix.longitudeDeg,
            altitudeM: configuration.targetAltitudeM, ttlS: configuration.targetTTLS)))
        return actions
    }

    private mutating func enterLost(_ reason: NoFixReason) -> [Action] {
        if case .lost = health { return [] }
        health = .lost(reason)
        return [.reportNoFix(reason: reason, lastTarget: lastTarget)]
    }
}

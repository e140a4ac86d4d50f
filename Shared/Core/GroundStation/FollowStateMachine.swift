import Clocks
import GPSD
import Navigation
import QuadProtocol

/// `location-broadcaster follow`: publishes the operator's own GPS position as the drone's target every interval.
/// Only a good, fresh fix is ever published; while there is none it reports "no fix, keeping last target" and
/// publishes nothing, so the drone keeps flying to (or holding at) the last good target. A fix whose own time is
/// off (receiver clock, replayed log) is a different problem from having no fix, and is reported as such.
///
/// Two clocks: `now` (monotonic) times receipts and the publishing interval; `wallClock` is what a fix's own UTC
/// time is checked against and what stamps each target.
public struct FollowStateMachine: Sendable {
    public struct Configuration: Sendable, Equatable {
        public var senderId: String
        public var publishInterval: Duration
        /// A fix not renewed by gpsd within this time is treated as lost.
        public var maxFixAgeS: Double
        /// Also judge freshness by the fix's own time against the caller's clock. Off for replays (gpsfake) whose
        /// timestamps lie in the past.
        public var checkFixTime: Bool
        /// Publish fixes whose time is off anyway (still reported once); for a receiver whose clock is known wrong.
        public var acceptStaleFix: Bool
        /// Fixes whose horizontal error is larger are not used; nil = accept any.
        public var maxHorizontalErrorM: Double?
        /// Sent as `Target.ttlS` so the drone drops the target if the broadcaster goes quiet.
        public var targetTTLS: Float
        public var targetAltitudeM: Float?

        public init(senderId: String, publishInterval: Duration = .seconds(1), maxFixAgeS: Double = 3,
                    checkFixTime: Bool = true, acceptStaleFix: Bool = false, maxHorizontalErrorM: Double? = 50,
                    targetTTLS: Float = 5, targetAltitudeM: Float? = nil) {
            self.senderId = senderId
            self.publishInterval = max(.microseconds(1), publishInterval)
            self.maxFixAgeS = maxFixAgeS
            self.checkFixTime = checkFixTime
            self.acceptStaleFix = acceptStaleFix
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
        /// A fix arrived but its time is off; `sending` tells whether it is published anyway (`acceptStaleFix`).
        /// Reported once until the fix time is right again.
        case reportStaleFix(FixTimeProblem, sending: Bool, lastTarget: GeoPoint?)
    }

    public enum FixTimeProblem: Sendable, Equatable {
        /// The fix's own time is `ageS` seconds behind the caller's clock (negative: ahead of it).
        case offClock(ageS: Double)
        /// The fix's time advanced `jumpS` seconds more than the time between receiving it and the previous fix.
        case jumped(jumpS: Double)
    }

    public enum NoFixReason: Sendable, Equatable {
        case noFixYet
        case gpsd(GPSFixStatus.NoFixReason)
        case stale
        case inaccurate(horizontalErrorM: Double)
    }

    private enum Health: Equatable { case unknown, good, lost(NoFixReason), staleTime }

    public let configuration: Configuration
    private var latest: (fix: GPSFix, receivedAtUs: Int64)?
    /// The previous dated fix, to catch a fix time that jumps (a replayed log restarting, a receiver resetting).
    private var previousDated: (timeUs: Int64, receivedAtUs: Int64, offClock: Bool)?
    private var health: Health = .unknown
    private var lastPublishUs: Int64?
    private var lastTarget: GeoPoint?
    private var sequence: UInt32 = 0

    public init(configuration: Configuration) {
        self.configuration = configuration
    }

    public mutating func fix(_ fix: GPSFix, now: MonotonicInstant, wallClock: WallInstant) -> [Action] {
        let nowUs = now.us
        if let error = fix.horizontalErrorM, let limit = configuration.maxHorizontalErrorM, error > limit {
            latest = nil
            return enterLost(.inaccurate(horizontalErrorM: error))
        }
        var actions: [Action] = []
        if configuration.checkFixTime, let timeUs = fix.stamp?.us {
            // Compared only between fixes on the same side of the clock check: the clock report covers the step
            // into (or out of) a wrong clock.
            let offClock = fix.isStale(wallClock: wallClock, maxAgeS: configuration.maxFixAgeS)
            defer { previousDated = (timeUs, nowUs, offClock) }
            if let previous = previousDated, previous.offClock == offClock {
                let jumpS = Double((timeUs &- previous.timeUs) &- (nowUs &- previous.receivedAtUs)) / 1_000_000
                if abs(jumpS) > configuration.maxFixAgeS {
                    if !configuration.acceptStaleFix {
                        latest = nil
                        return enterStale(.jumped(jumpS: jumpS), sending: false)
                    }
                    actions += enterStale(.jumped(jumpS: jumpS), sending: true)
                }
            }
        }
        latest = (fix, nowUs)
        return actions + tick(now: now, wallClock: wallClock)
    }

    public mutating func noFix(_ reason: GPSFixStatus.NoFixReason, now: MonotonicInstant) -> [Action] {
        latest = nil
        return enterLost(.gpsd(reason))
    }

    /// Call often (at least once per interval); publishes when a good fix is at hand and the interval has passed.
    public mutating func tick(now: MonotonicInstant, wallClock: WallInstant) -> [Action] {
        let nowUs = now.us
        guard let (fix, receivedAtUs) = latest else {
            return health == .unknown ? enterLost(.noFixYet) : []
        }
        let receiptAgeS = Double(nowUs &- receivedAtUs) / 1_000_000
        // Not renewed by gpsd, or undated: no current fix.
        if receiptAgeS > configuration.maxFixAgeS || (configuration.checkFixTime && fix.stamp == nil) {
            latest = nil
            return enterLost(.stale)
        }
        var actions: [Action] = []
        let position = GeoPoint(latitudeDeg: fix.latitudeDeg, longitudeDeg: fix.longitudeDeg)
        if configuration.checkFixTime, fix.isStale(wallClock: wallClock, maxAgeS: configuration.maxFixAgeS) {
            let ageS = Double(fix.age(wallClock: wallClock)?.us ?? 0) / 1_000_000
            guard configuration.acceptStaleFix else {
                latest = nil
                return enterStale(.offClock(ageS: ageS), sending: false)
            }
            actions += enterStale(.offClock(ageS: ageS), sending: true)
        } else if health != .good {
            health = .good
            actions.append(.reportFixAcquired(position))
        }
        if let last = lastPublishUs, nowUs &- last < configuration.publishInterval.us, nowUs >= last {
            return actions
        }
        sequence &+= 1
        lastPublishUs = nowUs
        lastTarget = position
        actions.append(.publishTarget(Target(
            senderId: configuration.senderId, sequence: sequence, timestampUs: wallClock.us,
            latitudeDeg: fix.latitudeDeg, longitudeDeg: fix.longitudeDeg,
            altitudeM: configuration.targetAltitudeM, ttlS: configuration.targetTTLS)))
        return actions
    }

    private mutating func enterStale(_ problem: FixTimeProblem, sending: Bool) -> [Action] {
        if health == .staleTime { return [] }
        health = .staleTime
        return [.reportStaleFix(problem, sending: sending, lastTarget: lastTarget)]
    }

    private mutating func enterLost(_ reason: NoFixReason) -> [Action] {
        if case .lost = health { return [] }
        health = .lost(reason)
        return [.reportNoFix(reason: reason, lastTarget: lastTarget)]
    }
}

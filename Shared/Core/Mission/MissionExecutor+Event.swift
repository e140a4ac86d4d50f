import Clocks
import Navigation

extension MissionExecutor {
    /// What the executor reacts to. The time of each comes with `handle(_:now:)`.
    public enum Event: Sendable, Equatable {
        /// Fly the plan from its first item. On the ground the plan's first item (after speed changes) must be a
        /// takeoff, asked for once; in the air takeoff items are passed over, as PX4 does.
        case start(airborne: Bool)
        case pause
        case resume
        case abort
        /// Fly on from item n (items between are left out; items from n on may be reached again).
        case goto(item: Int)
        /// The service saw the drone arrive at an item's point (or its takeoff altitude), `errorM` away.
        case arrived(item: Int, errorM: Double)
        case position(GeoPoint)
        case tick
        /// After a restart, from the last persisted record. `powerCycle`: the board itself restarted, so the
        /// mission holds until `resume`; otherwise (a service restart) it continues where it was.
        case restored(MissionProgressRecord, powerCycle: Bool, airborne: Bool)
        /// The pilot's link is gone (no beacon, no claim): the configured `LostPilotRule` applies.
        case pilotLost
        /// The link is back: the mission stays as the rule left it (a `resume` flies on).
        case pilotBack
    }

    /// What the service is to do. Movement actions replace the previous one.
    public enum Action: Sendable, Equatable {
        case takeoff(altitudeM: Double)
        /// `altitudeM` nil: keep the current altitude; `speedMps` nil: the controller's cruise speed.
        case flyTo(GeoPoint, altitudeM: Double?, speedMps: Double?, acceptanceRadiusM: Double)
        /// Hover where the drone is.
        case hold
        /// Hover (a multicopter's loiter) at the point until the instant.
        case loiter(GeoPoint, altitudeM: Double?, until: MonotonicInstant)
        /// Land at the point, or where the drone is when nil.
        case land(GeoPoint?)
        /// The controller's own return home (and landing).
        case returnHome
        case refused(Refusal)
        case publishProgress(MissionProgress)
        case persist(MissionProgressRecord)

        /// Whether the action moves the drone (everything but bookkeeping and refusals).
        public var moves: Bool {
            switch self {
            case .takeoff, .flyTo, .loiter, .returnHome: true
            case .hold, .land, .refused, .publishProgress, .persist: false
            }
        }
    }

    /// Why an event changed nothing.
    public enum Refusal: String, Sendable, Equatable {
        /// `start` on the ground, and the plan does not begin with a takeoff.
        case noTakeoffOnGround = "no-takeoff-on-ground"
        /// `start` while a mission runs, is paused or holds (`resume` or `abort` first).
        case alreadyStarted = "already-started"
        case notRunning = "not-running"
        case notPaused = "not-paused"
        /// `resume` after a restore on the ground: only `start` takes off.
        case onGround = "on-ground"
        case noSuchItem = "no-such-item"
        case finished = "finished"
        /// A restored record of another plan, or one whose ids do not fit this plan.
        case recordNotForThisPlan = "record-not-for-this-plan"
    }

    /// What the executor does when the pilot's link is lost (issue 37: a mission survives radio loss by default).
    public enum LostPilotRule: String, Sendable, Equatable, CaseIterable {
        case continueMission = "continue"
        case returnHome = "return"
        case land
    }

    public struct Configuration: Sendable, Equatable {
        public var lostPilotRule: LostPilotRule
        /// How often a running hold or loiter is persisted: the most a restore's time left can exceed the truth.
        public var persistEvery: Duration
        /// How often progress is published without a change.
        public var progressEvery: Duration
        /// The speed the remaining time is estimated with when the plan sets none, m/s (the controller's cruise).
        public var estimateSpeedMps: Double
        /// The most a plan's speed is flown at, m/s (the controller's `planSpeedLimitMps`).
        public var speedLimitMps: Double
        /// How fast a leg's speed is reached and braked away, m/s², for the remaining time (the controller's
        /// `approachBrakingMps2`: every leg ends at rest over its item, and begins there).
        public var legAccelerationMps2: Double

        public init(lostPilotRule: LostPilotRule = .continueMission, persistEvery: Duration = .seconds(1),
                    progressEvery: Duration = .seconds(1), estimateSpeedMps: Double = 3,
                    speedLimitMps: Double = .infinity, legAccelerationMps2: Double = 1.5) {
            self.lostPilotRule = lostPilotRule
            self.persistEvery = persistEvery
            self.progressEvery = progressEvery
            self.estimateSpeedMps = estimateSpeedMps
            self.speedLimitMps = speedLimitMps
            self.legAccelerationMps2 = legAccelerationMps2
        }
    }
}

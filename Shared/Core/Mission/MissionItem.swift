import Navigation

/// One step of a mission. `id` is its index in the plan (0…n-1): progress, `goto` and the persisted record name
/// items by it, so it never changes once the plan is built.
public struct MissionItem: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// Climb where the drone stands; only flown when the mission starts on the ground (passed over in the air).
        case takeoff(altitudeM: Double)
        /// Fly there; arrived within `acceptanceRadiusM`, then stay `holdTime`.
        case waypoint(GeoPoint, altitudeM: Double, holdTime: Duration, acceptanceRadiusM: Double)
        /// Fly there, then circle (a multicopter: hover) for `time`.
        case loiterTime(GeoPoint, altitudeM: Double, time: Duration)
        /// The speed of every later leg.
        case changeSpeed(speedMps: Double)
        /// Land at the point (flown to first), or where the drone is when nil. Ends the mission.
        case land(GeoPoint?)
        /// The controller's own return: fly home, land. Ends the mission.
        case returnToLaunch
    }

    /// The radius a loiter or a land point counts as arrived within, m (the controller's own arrival radius).
    public static let defaultAcceptanceRadiusM = 1.0

    public var id: Int
    public var kind: Kind

    public init(id: Int, kind: Kind) {
        self.id = id
        self.kind = kind
    }

    /// Where the item flies to, if anywhere.
    public var point: GeoPoint? {
        switch kind {
        case let .waypoint(point, _, _, _), let .loiterTime(point, _, _): point
        case let .land(point): point
        case .takeoff, .changeSpeed, .returnToLaunch: nil
        }
    }

    public var altitudeM: Double? {
        switch kind {
        case let .takeoff(altitudeM), let .waypoint(_, altitudeM, _, _), let .loiterTime(_, altitudeM, _): altitudeM
        case .changeSpeed, .land, .returnToLaunch: nil
        }
    }

    /// How long the drone stays once there (a waypoint's hold, a loiter's time); zero for the rest.
    public var stayTime: Duration {
        switch kind {
        case let .waypoint(_, _, holdTime, _): holdTime
        case let .loiterTime(_, _, time): time
        case .takeoff, .changeSpeed, .land, .returnToLaunch: .zero
        }
    }

    /// Land and return-to-launch end a mission: nothing after them is flown.
    public var endsMission: Bool {
        switch kind {
        case .land, .returnToLaunch: true
        case .takeoff, .waypoint, .loiterTime, .changeSpeed: false
        }
    }

    /// The MAVLink command (MAV_CMD) the item corresponds to, for messages and the .plan round trip.
    public var mavlinkCommand: Int {
        switch kind {
        case .takeoff: 22
        case .waypoint: 16
        case .loiterTime: 19
        case .changeSpeed: 178
        case .land: 21
        case .returnToLaunch: 20
        }
    }
}

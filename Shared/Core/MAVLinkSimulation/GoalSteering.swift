#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import DroneSimulation
import Navigation

/// A point the autopilot flies to by itself (DO_REPOSITION, RTL), in metres from home, and the velocity command
/// that gets there: straight at the cruise speed, slowing inside `slowdownM`, climbing or descending meanwhile.
struct GoalSteering: Sendable, Equatable {
    var northM: Double
    var eastM: Double
    var altitudeM: Double

    /// PX4's MPC_XY_CRUISE, capped by the airframe's top speed.
    static let cruiseMps = 5.0
    static let slowdownM = 5.0
    static let arrivedM = 0.5

    init(northM: Double, eastM: Double, altitudeM: Double) {
        self.northM = northM
        self.eastM = eastM
        self.altitudeM = altitudeM
    }

    /// A geographic goal, `altitudeM` above home.
    init(_ point: GeoPoint, home: GeoPoint, altitudeM: Double) {
        let metres = LocalTangentPlane(origin: home).metres(point)
        self.init(northM: metres.northM, eastM: metres.eastM, altitudeM: altitudeM)
    }

    func horizontalDistanceM(from drone: SimulatedDrone) -> Double {
        hypot(northM - drone.northM, eastM - drone.eastM)
    }

    func isReached(by drone: SimulatedDrone) -> Bool {
        horizontalDistanceM(from: drone) < Self.arrivedM && abs(altitudeM - drone.altitudeM) < 0.3
    }

    /// Ground velocity toward the goal turned into the body frame, as fractions of the airframe's limits, turning at
    /// `yawRateRadps` meanwhile.
    func command(for drone: SimulatedDrone, yawRateRadps: Double = 0) -> ProgressiveCommand {
        let p = drone.parameters
        let distanceM = horizontalDistanceM(from: drone)
        let speedMps = min(Self.cruiseMps, p.maxSpeedMps, Self.cruiseMps * distanceM / Self.slowdownM)
        let (north, east) = distanceM > 0.01
            ? ((northM - drone.northM) / distanceM * speedMps, (eastM - drone.eastM) / distanceM * speedMps) : (0, 0)
        let h = drone.headingDeg * .pi / 180
        let forward = north * cos(h) + east * sin(h)
        let right = -north * sin(h) + east * cos(h)
        let climbMps = max(-p.maxClimbRateMps, min(p.maxClimbRateMps, (altitudeM - drone.altitudeM) * 1.0))
        func fraction(_ value: Double, _ limit: Double) -> Double { max(-1, min(1, value / limit)) }
        return ProgressiveCommand(flag: 1, roll: fraction(right, p.maxSpeedMps),
            pitch: -fraction(forward, p.maxSpeedMps),
                                  gaz: fraction(climbMps, p.maxClimbRateMps),
                                  yaw: fraction(yawRateRadps * 180 / .pi, p.maxYawRateDegPerS))
    }
}

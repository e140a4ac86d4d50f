#if canImport(Glibc)
import Glibc
#endif
import DroneSimulation
import Navigation

/// The vehicle inside the bench process that a link flies: the AR.Drone (`FakeDrone`, drone-link) or the PX4-like
/// MAVLink vehicle (`FakeMAVLinkVehicle`, mavlink-link). Both time-stamp what arrives with the bench's monotonic
/// clock and answer a latency probe: the first flight command whose yaw has a given sign.
protocol BenchVehicle: Sendable {
    var home: GeoPoint { get }
    var snapshot: VehicleSnapshot { get }
    /// From `startNs` on, the first command turning with the sign of `yawSign` completes the probe.
    func arm(yawSign: Int, startNs: Int64)
    /// The probe's latency once it matched; nil while it waits.
    func probeResultNs() -> Int64?
    func startRecording()
    /// Arrival times of every flight-command datagram since `startRecording`.
    func stopRecording() -> [Int64]
    func stop()
}

/// Where the vehicle is, as the physics has it (targets are placed relative to it).
struct VehicleSnapshot: Sendable {
    var position: GeoPoint
    var headingDeg: Double
    var isAirborne = false
    var altitudeM = 0.0
}

extension VehicleSnapshot {
    /// The simulated airframe's position (metres from home) as a geographic point.
    init(_ drone: SimulatedDrone, home: GeoPoint) {
        let distanceM = (drone.eastM * drone.eastM + drone.northM * drone.northM).squareRoot()
        let bearingDeg = atan2(drone.eastM, drone.northM) * 180 / .pi
        self.init(position: Geodesy.destination(from: home, bearingDeg: bearingDeg, distanceM: distanceM),
                  headingDeg: drone.headingDeg,
                  isAirborne: drone.flightState == .hovering || drone.flightState == .flying,
                  altitudeM: drone.altitudeM)
    }
}

import Clocks
import GPSD
import QuadMQTT
import QuadProtocol
import Testing
@testable import NavigatorKit

/// The navigator's decisions without a bus: events in, solutions out.
@Suite("TargetFollowingNavigator")
struct TargetFollowingNavigatorTests {
    /// With `--position gpsd` every fix gpsd reports moves the drone in the next solution: none is skipped or held
    /// back (the gpsfake integration test sees only the epochs a loaded gpsd reports; this is the navigator's part).
    @Test("--position gpsd: one solution per fix, each at that fix's position, in order; telemetry/position ignored")
    func everyGPSDFixGivesASolution() throws {
        var navigator = TargetFollowingNavigator(configuration: .init(positionSource: .gpsd(.local), maxFixAgeS: nil))
        let target = MQTTMessage(topic: "quad/t1/target", payload: Array(#"{"lat":52.5175,"lon":13.38}"#.utf8))
        let wallClock = WallInstant(us: 1_700_000_000_000_000)
        // No position yet.
        #expect(try navigator.handle(.target(target, receivedAt: .init(us: 1_000), wallClock: wallClock)) == nil)
        let state = DroneState(sequence: 1, timestampUs: 0, navdataSequence: 1, stateBits: 0, controlState: .hovering,
                               batteryPercent: 80, altitudeM: 2, pitchDeg: 0, rollDeg: 0, yawDeg: 0, velocityXMps: 0,
                               velocityYMps: 0, velocityZMps: 0, magnetoHeadingDeg: 42)
        let drone = MQTTMessage(topic: "quad/t1/telemetry/drone", payload: try state.encoded())
        _ = try navigator.handle(.drone(drone, receivedAt: .init(us: 2_000)))
        let decoy = MQTTMessage(topic: "quad/t1/telemetry/position", payload: try PositionFix(
            sequence: 1, timestampUs: 1, latitudeDeg: 10, longitudeDeg: 10, source: .manual).encoded())
        var positions: [(Double, Double)] = []
        for i in 0..<30 {
            let fix = GPSFix(dimension: .twoD, latitudeDeg: 52.5163 + Double(i) * 1e-5,
                longitudeDeg: 13.3777 - Double(i) * 1e-5)
            let receivedAt = MonotonicInstant(us: 3_000 + Int64(i) * 400_000)
            let event = NavigatorService.Event.gpsFix(fix, receivedAt: receivedAt, wallClock: .init(us: 0))
            let solution = try #require(try navigator.handle(event))
            positions.append((solution.droneLatitudeDeg, solution.droneLongitudeDeg))
            #expect(solution.headingDeg == 42)
            #expect(try navigator.handle(.position(decoy, receivedAt: .init(us: 3_001 + Int64(i) * 400_000))) == nil)
        }
        #expect(positions.count == 30)
        for (i, position) in positions.enumerated() {
            #expect(position.0 == 52.5163 + Double(i) * 1e-5 && position.1 == 13.3777 - Double(i) * 1e-5)
        }
    }
}

/// A restarted navigator never received the target (issue 24): it takes it from the controller's retained state,
/// and its solutions carry the sequence the controller names.
@Suite("TargetFollowingNavigator: the target from the controller's state")
struct NavigatorAdoptsControllerTargetTests {
    @Test(arguments: [UInt32(17), 0])
    func aRestartedNavigatorFlowsOnWithTheControllersTarget(sequence: UInt32) throws {
        var navigator = TargetFollowingNavigator(configuration: .init())
        let state = ControllerState(sequence: 4, timestampUs: 0, activity: .hovering, reason: .staleNavigation,
                                    targetLatitudeDeg: 52.5175, targetLongitudeDeg: 13.38, runId: 9,
                                    targetSequence: sequence)
        var retained = MQTTMessage(topic: "quad/drone1/telemetry/controller", payload: try state.encoded())
        retained.retain = true
        #expect(try navigator.handle(.controller(retained, receivedAt: .init(us: 1_000))) == nil)  // no position yet
        let drone = DroneState(sequence: 1, timestampUs: 0, navdataSequence: 1, stateBits: 1, controlState: .hovering,
                               batteryPercent: 80, altitudeM: 2, pitchDeg: 0, rollDeg: 0, yawDeg: 0, velocityXMps: 0,
                               velocityYMps: 0, velocityZMps: 0, magnetoHeadingDeg: 10)
        _ = try navigator.handle(.drone(MQTTMessage(topic: "quad/drone1/telemetry/drone", payload: try drone.encoded()),
                                        receivedAt: .init(us: 2_000)))
        let fix = PositionFix(sequence: 1, timestampUs: 1, latitudeDeg: 52.5163, longitudeDeg: 13.3777,
            source: .droneGPS)
        let solution = try #require(try navigator.handle(.position(
            MQTTMessage(topic: "quad/drone1/telemetry/position", payload: try fix.encoded()),
            receivedAt: .init(us: 3_000))))
        #expect(solution.targetSequence == sequence, "0: a JSON target (mosquitto_pub) is unsequenced")
        #expect(solution.targetLatitudeDeg == 52.5175 && solution.targetLongitudeDeg == 13.38)
        #expect(solution.distanceM > 100)
    }
}

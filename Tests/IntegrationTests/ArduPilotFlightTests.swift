import BrokerNodes
import Foundation
import Navigation
import ProcessSupport
import QuadProtocol
import Testing

/// The product flying drone-sim's ArduCopter face (`--autopilot ardupilot`) through mavlink-link, as it flies the
/// real ArduCopter (issue 26, item 3): mosquitto_pub takeoff (GUIDED, arm, NAV_TAKEOFF, no setpoint during the
/// climb) → JSON target → land, judged on the simulator's ground truth.
@Suite("MAVLink flights: ArduCopter face", .offPool, .serialized)
struct ArduPilotFlightTests {
    @Test(
        """
            product over MAVLink on `drone-sim --autopilot ardupilot`: takeoff climbs to 2 m and more, a 30 m target \
            within 2 m, land disarms
            """,
          .enabled(if: TestEnvironment.available("mosquitto", "mosquitto_pub")))
    func productFliesTheArduCopterFace() async throws {
        let stack = try FlightStack(simArguments: ["--gps-noise", "0.2", "--autopilot", "ardupilot"], link: .mavlink)
        defer { stack.stop() }
        try await stack.waitUntilReady(services: ["mavlink-link", "navigator", "drone-controller"])
        let sim = { stack.process("drone-sim")?.output() ?? "" }
        // Like ArduCopter, the face refuses to arm until its position estimate is there (4 s after its start).
        try await eventually(timeout: TestEnvironment.readinessTimeout, "the position estimate\n\(stack.logs())") {
            sim().contains("says: EKF3 IMU0 is using GPS")
        }
        try stack.mosquittoPub("command", "takeoff")
        try await eventually(timeout: TestEnvironment.flightPhaseTimeout, "airborne above 2 m\n\(stack.logs())") {
            stack.trace().last.map { $0.altitudeM > 2 && $0.isAirborne } == true
        }
        let target = stack.target(bearingDeg: 45, distanceM: 30)
        try stack.publishTarget(target)
        try await eventually(timeout: TestEnvironment.flightPhaseTimeout * 3, "arrived within 2 m\n\(stack.logs())") {
            (stack.trace().last?.distanceM(to: target) ?? .infinity) < 2
        }
        try stack.mosquittoPub("command", "land")
        try await eventually(timeout: TestEnvironment.flightPhaseTimeout, "landed and disarmed\n\(stack.logs())") {
            stack.trace().last?.flightState == "landed" && sim().contains("disarmed: landed in LAND")
        }
        let link = stack.process("mavlink-link")?.output() ?? ""
        #expect(link.contains("guided: accepted") && link.contains("arm: accepted")
            && link.contains("takeoff: accepted"),
                "\(link.suffix(3000))")
        #expect(link.contains("land: accepted"), "\(link.suffix(3000))")
        // The takeoff climbed without a setpoint (mavlink-link withholds them): none cancelled it on the ground.
        #expect(!sim().contains("(it stays there)"), "\(sim().suffix(3000))")
        #expect(sim().contains("GUIDED takeoff complete") || sim().contains("cancelled the climb to 2.50 m"),
                "\(sim().suffix(3000))")
    }
}

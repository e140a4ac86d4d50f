import Foundation
import Navigation
import Testing

/// The whole drone side over real processes: mosquitto + drone-sim + drone-link + navigator + drone-controller.
/// A user's mosquitto_pub takeoff and JSON target fly the simulated drone there; `land` lands it. Asserts on the
/// simulator's ground truth.
@Suite("Closed-loop flight", .offPool,
       .serialized, .enabled(if: TestEnvironment.available("mosquitto", "mosquitto_pub")))
struct ClosedLoopFlightTests {
    struct Scenario: Sendable, CustomTestStringConvertible {
        var name: String
        var home: GeoPoint
        var simArguments: [String]
        var testDescription: String { name }
        var gpsNoiseM: Double {
            guard let i = simArguments.firstIndex(of: "--gps-noise"), i + 1 < simArguments.count else { return 0 }
            return Double(simArguments[i + 1]) ?? 0
        }
    }

    static let scenarios = [
        Scenario(name: "calm, Berlin", home: GeoPoint(latitudeDeg: 52.5163, longitudeDeg: 13.3777), simArguments: []),
        Scenario(name: "2 m/s wind from the west", home: GeoPoint(latitudeDeg: 52.5163, longitudeDeg: 13.3777),
                 simArguments: ["--wind", "2,270", "--gps-noise", "0.2"]),
        Scenario(name: "latitude 60°, GPS noise", home: GeoPoint(latitudeDeg: 60.1699, longitudeDeg: 24.9384),
                 simArguments: ["--gps-noise", "0.3"]),
    ]

    /// Issue 25: with drone-sim's own default GPS noise (1.5 m) a target is arrived at (the controller says so) and
    /// `return` lands within 2 m of the takeoff point, ≤ 25 s after the drone came within 5 m of it; no full yaw near
    /// either goal. Before, nothing ever arrived and the return danced around home for good.
    @Test("default GPS noise (1.5 m): arrives, returns, lands within 2 m of home ≤ 25 s after within 5 m")
    func arriveAndReturnWithDefaultNoise() async throws {
        let flight = try await ReturnFlight.fly(simArguments: [])
        print("closed loop: 1.5 m noise: \(flight)")
        #expect(flight.arrivedWithinM < 2, "hovered up to \(flight.arrivedWithinM) m from the target after arrival")
        #expect(flight.landedFromHomeM < 2, "landed \(flight.landedFromHomeM) m from home")
        #expect(flight.landedAfterWithin5mS <= 25, "landed \(flight.landedAfterWithin5mS) s after within 5 m")
        #expect(flight.maxYawNearGoal < 1, "full yaw near the goal")
    }

    @Test("takeoff, fly 40 m to a JSON target, hover within the arrival radius, land", arguments: scenarios)
    func flyToTarget(scenario: Scenario) async throws {
        let stack = try FlightStack(home: scenario.home, simArguments: scenario.simArguments)
        defer { stack.stop() }
        try await stack.waitUntilReady()
        try stack.mosquittoPub("command", "takeoff")
        try await eventually(timeout: TestEnvironment.flightPhaseTimeout, "airborne\n\(stack.logs())") {
            stack.lastRow().map { $0.altitudeM > 0.5 && $0.flightState == "hovering" } == true
        }
        let target = stack.target(bearingDeg: 45, distanceM: 40)
        try stack.publishTarget(target)
        // The controller hovers once its GPS says < 1 m; the truth may differ by the GPS noise (3σ).
        let tolerance = 1.0 + 3 * scenario.gpsNoiseM
        try await eventually(timeout: TestEnvironment.flightPhaseTimeout * 3,
                             "arrived within \(tolerance) m\n\(stack.logs())") {
            (stack.lastRow()?.distanceM(to: target) ?? .infinity) < tolerance
        }
        // Hovering on arrival: it stays close for the next seconds (the last 2 of 3 s of the simulator's time).
        let recent = try await stack.rows(afterS: 3, last: 2)
        #expect(recent.allSatisfy { $0.distanceM(to: target) < tolerance + 1 }, "drifted off the target after arrival")
        #expect(stack.trace().allSatisfy { $0.distanceM(to: scenario.home) < 200 }, "left the geofence")
        try stack.mosquittoPub("command", "land")
        try await eventually(timeout: TestEnvironment.flightPhaseTimeout, "landed\n\(stack.logs())") {
            stack.lastRow()?.flightState == "landed"
        }
    }
}

import Foundation
import Navigation
import ProcessSupport
import Testing

/// Issue 38, item 2, flown: a target behind a keep-out zone is reached by a path around it, leg by leg, and never
/// through it, by drone-sim's ground truth. The controller plans the path (its graph built off its thread once the
/// airspace is accepted) and steers each corner in turn; only the target itself is arrived at. The return home
/// from there goes around the zone the same way.
@Suite("airspace: a target behind a keep-out zone, flown around it", .offPool, .serialized,
       .enabled(if: TestEnvironment.available("mosquitto", "mosquitto_pub")))
struct AirspaceRouteFlightTests {
    static let sideM = 10.0
    /// The zone's near edge north of home, and the target north of its far edge.
    static let nearEdgeM = 12.0
    static let beyondM = 8.0
    static let marginM = 2.0

    @Test("a target behind the zone and home again: around it corner by corner both ways, never inside it")
    func flownAroundTheZone() async throws {
        let stack = try FlightStack(simArguments: ["--gps-noise", "0.5"])
        defer { stack.stop() }
        try await stack.waitUntilReady()
        let centre = stack.target(bearingDeg: 0, distanceM: Self.nearEdgeM + Self.sideM / 2)
        let goal = stack.target(bearingDeg: 0, distanceM: Self.nearEdgeM + Self.sideM + Self.beyondM)
        let zones = stack.broker.directory.appendingPathComponent("zones.geojson")
        try AirspaceUploadTests.geoJSON(name: "shed", around: centre, sideM: Self.sideM)
            .write(to: zones, atomically: true, encoding: .utf8)
        let upload = try await runToEnd("location-broadcaster", stack.groundCommon + [
            "airspace", "upload", zones.path, "--margin", "\(Int(Self.marginM))", "--timeout", "30"],
            logDirectory: stack.broker.directory)
        #expect(upload.code == 0, "\(upload.output)\n\(stack.logs())")
        func controller() -> String { stack.process("drone-controller")?.output() ?? "" }
        try await eventually(timeout: TestEnvironment.readinessTimeout, "the paths built\n\(stack.logs())") {
            controller().contains("paths around the zones of airspace")
        }
        try stack.mosquittoPub("command", "takeoff")
        try await eventually(timeout: TestEnvironment.flightPhaseTimeout, "hovering\n\(stack.logs())") {
            controller().contains("hovering (airborne)")
        }
        try stack.publishTarget(goal)
        try await eventually(timeout: TestEnvironment.flightPhaseTimeout, "the route\n\(stack.logs())") {
            controller().contains("flying around it in")
        }
        // `status` says the route while it is flown (the controller's retained airspace/route).
        let status = try await runToEnd("location-broadcaster", stack.groundCommon + ["status"],
                                        logDirectory: stack.broker.directory)
        #expect(status.output.contains("route     around 'shed': leg "), "\(status.output)")
        try await eventually(timeout: TestEnvironment.flightPhaseTimeout * 3, "arrived\n\(stack.logs())") {
            controller().contains("arrived (arrived)")
        }
        let log = controller()
        #expect(log.contains("(target-around-zone)"), "the state did not say so\n\(log.suffix(3000))")
        #expect(log.contains("reached: leg 2 of"), "no corner passed\n\(log.suffix(3000))")
        // Arrived at the target itself, by ground truth.
        let last = try #require(stack.lastRow())
        #expect(last.distanceM(to: goal) < 3, "\(last.distanceM(to: goal)) m from the target\n\(stack.logs())")
        // Home again: the straight way home meets the zone too.
        try stack.mosquittoPub("command", "return")
        try await eventually(timeout: TestEnvironment.flightPhaseTimeout * 3, "landed at home\n\(stack.logs())") {
            controller().components(separatedBy: "landed (").count > 2
        }
        #expect(controller().contains("return: the straight way home meets 'shed'"), "\(controller().suffix(3000))")
        let landed = try #require(stack.lastRow())
        #expect(landed.distanceM(to: stack.home) < 3, "landed \(landed.distanceM(to: stack.home)) m from home")
        // Never inside the zone; the closest approach is printed (the margin is the planner's, the track noisy).
        let closestM = AirspaceUploadTests.closestApproachM(stack.trace(), toSquareAround: centre, sideM: Self.sideM)
        print("airspace route: closest to the zone \(String(format: "%.2f", closestM)) m (margin \(Self.marginM) m)")
        #expect(closestM > 0, "entered the zone (\(closestM) m)\n\(stack.logs())")
    }
}

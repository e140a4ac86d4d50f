import Foundation
import Navigation
import Testing

/// Issue 25's scenario, judged by drone-sim's ground truth: take off, fly a leg to a target, arrive (the controller
/// says so), `return`, land. What it measured, for the test to judge and print.
struct ReturnFlight {
    var arrivedWithinM: Double
    var landedFromHomeM: Double
    /// From the first trace row within 5 m of home (on the way back) to touchdown.
    var landedAfterWithin5mS: Double
    /// The largest |yaw| commanded while within the arrival radius of the goal (target or home).
    var maxYawNearGoal: Double
    /// What the stack's processes printed (their last lines), for a failure message.
    var logs = ""

    static func fly(simArguments: [String], legM: Double = 20, bearingDeg: Double = 45,
                    link: FlightStack.Link = .ardrone) async throws -> ReturnFlight {
        let stack = try FlightStack(simArguments: simArguments, link: link)
        defer { stack.stop() }
        try await stack.waitUntilReady(services: [link.service, "navigator", "drone-controller"])
        try stack.mosquittoPub("command", "takeoff")
        try await eventually(timeout: TestEnvironment.flightPhaseTimeout, "airborne\n\(stack.logs())") {
            stack.lastRow().map { $0.altitudeM > 0.5 && $0.isAirborne } == true
        }
        let target = stack.target(bearingDeg: bearingDeg, distanceM: legM)
        try stack.publishTarget(target)
        let arrived = try await runToEnd("location-broadcaster", ["status", "--until", "arrived", "--timeout", "90"]
                                         + stack.common, logDirectory: stack.broker.directory, timeoutS: 100)
        try #require(arrived.code == 0, "never arrived\n\(arrived.output)\n\(stack.logs())")
        // Hovering at the target: the last 2 of 3 s of the simulator's time after the controller said arrived.
        let atTarget = try await stack.rows(afterS: 3, last: 2).map { $0.distanceM(to: target) }.max() ?? .infinity
        let returnStartS = stack.trace().last?.timeS ?? 0
        let run = try await runToEnd("location-broadcaster", ["return", "--timeout", "10"] + stack.common,
                                     logDirectory: stack.broker.directory)
        try #require(run.code == 0, "\(run.output)")
        try await eventually(timeout: .seconds(120), "landed after the return\n\(stack.logs())") {
            stack.trace().last?.flightState == "landed"
        }
        let trace = stack.trace()
        let back = trace.filter { $0.timeS >= returnStartS }
        let within5 = back.first { $0.distanceM(to: stack.home) < 5 }?.timeS ?? .infinity
        let touchdown = back.first { $0.flightState == "landed" }?.timeS ?? .infinity
        let landed = try #require(trace.last)
        let nearGoal = trace.filter {
            ($0.isAirborne && $0.distanceM(to: target) < 1 && $0.timeS < returnStartS)
                || ($0.isAirborne && $0.distanceM(to: stack.home) < 1 && $0.timeS >= returnStartS)
        }
        return ReturnFlight(arrivedWithinM: atTarget, landedFromHomeM: landed.distanceM(to: stack.home),
                            landedAfterWithin5mS: touchdown - within5,
                            maxYawNearGoal: nearGoal.map { abs($0.pcmdYaw) }.max() ?? 0, logs: stack.logs())
    }
}

/// The figures only: the logs go into failure messages.
extension ReturnFlight: CustomStringConvertible {
    var description: String {
        "arrived within \(arrivedWithinM) m, landed \(landedFromHomeM) m from home "
            + "\(landedAfterWithin5mS) s after within 5 m, max yaw near a goal \(maxYawNearGoal)"
    }
}

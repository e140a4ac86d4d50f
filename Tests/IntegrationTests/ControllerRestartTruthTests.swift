import Foundation
import Navigation
import ProcessSupport
import QuadProtocol
import Testing

/// Issue 33's restarts, as a user met them, judged by drone-sim's ground truth: drone-controller SIGKILLed mid-leg
/// and started again 1 s later with the same (default) options. It must not say "landed" about the flying drone
/// (a `status --until landed` waiting meanwhile must not return), it resumes the target from the flight memory it
/// keeps by default, and a `return` then lands at the takeoff point, not where the restart happened. Without flight
/// memory (`--no-flight-memory`) a `return` is refused (home unknown) and the drone holds.
@Suite("drone-controller restarted mid-leg: the truth afterwards", .offPool, .serialized,
       .enabled(if: TestEnvironment.available("mosquitto", "mosquitto_pub")))
struct ControllerRestartTruthTests {
    /// Takeoff, a target `distanceM` out, 8 m into the leg; then SIGKILL, 1 s, the same command line again.
    static func restartedMidLeg(_ flight: FaultFlight, distanceM: Double) async throws -> (GeoPoint, Date) {
        try await flight.takeOff()
        let target = flight.target(bearingDeg: 60, distanceM: distanceM)
        try flight.fly(to: target)
        try await flight.waitMidFlight(travelledM: 8)
        _ = try await flight.crash("drone-controller")
        try await Task.sleep(for: .seconds(1))
        let restartedAt = Date()
        try flight.stack.start("drone-controller", flight.controllerArguments)
        try await flight.waitOnline(["drone-controller"], since: restartedAt)
        return (target, restartedAt)
    }

    /// The controller states published after `since`, decoded.
    static func states(_ flight: FaultFlight, since: Date) -> [ControllerState] {
        flight.bus.messages(on: Topics.controllerState.topic(for: flight.droneID)).filter { $0.at >= since }
            .compactMap { try? ControllerState(decoding: $0.message.payload) }
    }

    @Test("default options: unknown, never landed; the target resumed; return lands at the takeoff point")
    func defaultOptions() async throws {
        let flight = try await FaultFlight()
        defer { flight.stop() }
        let waiter = try ChildProcess(executable: TestEnvironment.executable("location-broadcaster").path,
            arguments: ["status", "--until", "landed", "--timeout", "300"] + flight.stack.common,
            logDirectory: flight.stack.broker.directory)
        defer { waiter.stop(signal: SIGTERM) }
        let (target, restartedAt) = try await Self.restartedMidLeg(flight, distanceM: 28)
        try await flight.waitArrived(at: target)
        let states = Self.states(flight, since: restartedAt)
        let newRun = states.last?.runId
        let ofNewRun = states.filter { $0.runId == newRun }
        #expect(ofNewRun.first?.activity == .unknown, "\(ofNewRun.map(\.activity))")
        #expect(!ofNewRun.contains { $0.activity == .landed }, "said landed in the air: \(ofNewRun.map(\.activity))")
        #expect(ofNewRun.contains { $0.reason == .resumedTarget }, "\(ofNewRun.map(\.reason))\n\(flight.logs())")
        #expect(waiter.isRunning, "status --until landed returned while the drone flew:\n\(waiter.output())")

        let run = try await runToEnd("location-broadcaster", ["return", "--timeout", "10"] + flight.stack.common,
                                     logDirectory: flight.stack.broker.directory)
        #expect(run.code == 0, "\(run.output)")
        try await flight.waitLanded(timeoutS: 120)
        let landed = try #require(flight.lastRow())
        #expect(landed.distanceM(to: flight.home) < 1.5,
                "landed \(landed.distanceM(to: flight.home)) m from the takeoff point\n\(flight.logs())")
        try await eventually(timeout: TestEnvironment.flightPhaseTimeout,
                             "status --until landed returns once landed\n\(waiter.output())") {
            !waiter.isRunning
        }
    }

    @Test("--no-flight-memory: after the restart, return is refused (home unknown) and the drone holds")
    func withoutMemory() async throws {
        let flight = try await FaultFlight(controllerArguments: ["--no-flight-memory"])
        defer { flight.stop() }
        _ = try await Self.restartedMidLeg(flight, distanceM: 28)
        try await eventually(timeout: TestEnvironment.flightPhaseTimeout, "resumed-in-flight\n\(flight.logs())") {
            Self.states(flight, since: .distantPast).last?.reason == .resumedInFlight
        }
        let run = try await runToEnd("location-broadcaster", ["return", "--timeout", "10"] + flight.stack.common,
                                     logDirectory: flight.stack.broker.directory)
        #expect(run.code == 1, "\(run.output)")
        #expect(run.output.contains("return-refused-no-home"), "\(run.output)")
        // Holding for 3 s of the simulator's time (a sleep on a loaded machine may cover less of the flight).
        let row = try #require(try await flight.stack.rows(afterS: 3, last: 3).last)
        #expect(row.isAirborne && row.altitudeM > 0.5, "did not hold after the refused return\n\(flight.logs())")
        try await flight.land()
    }
}

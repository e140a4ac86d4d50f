import Foundation
import QuadProtocol
import Testing

/// Field-ready: a command sent to an earlier run of drone-controller (queued in the board's bridge while the
/// controller restarted) is never acted on, whatever the sender's clock says. The real controller, drone-link and
/// drone-sim; the simulator's ground truth judges whether the drone moved.
@Suite("Run addressing", .offPool, .serialized, .enabled(if: TestEnvironment.available("mosquitto", "mosquitto_pub")))
struct RunAddressFlightTests {
    /// `skewS`: the sender's clock against the board's (a year ahead, ten minutes behind, none): the stamp of the
    /// late takeoff may make it look as fresh or as old as anything; only its address decides.
    @Test("a takeoff for the previous run is refused, the drone stays landed; the broadcaster's, to the new run, flies",
          arguments: [0.0, 31_536_000.0, -600.0])
    func takeoffForPreviousRunIsRefused(skewS: Double) async throws {
        let stack = try FlightStack()
        defer { stack.stop() }
        try await stack.waitUntilReady()
        let stateTopic = "quad/\(stack.drone)/telemetry/controller"
        let bus = try await BusRecorder(port: stack.broker.port, id: "run-watch", filters: [stateTopic])
        func states() -> [ControllerState] {
            bus.messages(on: stateTopic).compactMap { try? ControllerState(decoding: $0.message.payload) }
        }
        var oldRun: UInt32 = 0
        try await eventually(timeout: TestEnvironment.readinessTimeout, "the controller's run id\n\(stack.logs())") {
            oldRun = states().last?.runId ?? 0
            return oldRun != 0
        }

        // Restart the controller: a new run, a new id.
        _ = stack.process("drone-controller")?.stop()
        try stack.start("drone-controller", [])
        try await stack.waitUntilReady(services: ["drone-controller"])
        var newRun: UInt32 = 0
        try await eventually(timeout: TestEnvironment.readinessTimeout,
                             "the restarted controller's run id\n\(stack.logs())") {
            newRun = states().last?.runId ?? 0
            return newRun != 0 && newRun != oldRun
        }

        // What the bridge would deliver late: a live (not retained) QoS 1 takeoff for the old run, stamped by a
        // sender clock `skewS` off, published after the restart.
        let late = Command(senderId: "ground", sequence: 1,
                           timestampUs: Int64((Date().timeIntervalSince1970 + skewS) * 1e6),
                           kind: .takeoff, controllerRunId: oldRun)
        try await bus.publish("quad/\(stack.drone)/command", late.encoded())
        try await eventually(timeout: TestEnvironment.readinessTimeout,
                             "the refusal in the controller's state\n\(stack.logs())") {
            states().contains { $0.runId == newRun && $0.reason == .commandForPreviousRun }
        }
        // 2 s of the simulator's time in which nothing may take off.
        _ = try await stack.rows(afterS: 2, last: 2)
        #expect(states().last?.activity == .landed)
        #expect(stack.trace().allSatisfy { $0.flightState == "landed" }, "the drone moved\n\(stack.logs())")
        let controllerLog = stack.process("drone-controller")?.output() ?? ""
        #expect(controllerLog.contains("sent to controller run \(oldRun), this is run \(newRun)"), "\(controllerLog)")

        // The broadcaster reads the new run from the retained state and addresses its takeoff to it.
        let run = try await runToEnd("location-broadcaster", ["takeoff", "--timeout", "20"] + stack.common,
                                     logDirectory: stack.broker.directory)
        #expect(run.code == 0, "\(run.output)\n\(stack.logs())")
        #expect(run.output.contains("takeoff sent as ") && run.output.contains("to controller run \(newRun)"),
                "\(run.output)")
        // The controller said airborne from the drone's navdata; the simulator's trace file shows it within its
        // flush period, which a loaded machine stretches.
        try await eventually(timeout: TestEnvironment.readinessTimeout, "not airborne\n\(stack.logs())") {
            stack.lastRow()?.isAirborne == true
        }
    }
}

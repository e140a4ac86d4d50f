import Foundation
import ProcessSupport
import QuadProtocol
import Testing

/// location-broadcaster addresses what it sends to the controller run named in the controller's state (format
/// 1.2). The controller is a FakeController; each test has a drone of its own (retained states stay on the broker).
@Suite("location-broadcaster run addressing", .offPool,
       .serialized, .enabled(if: TestEnvironment.available("mosquitto")))
struct LocationBroadcasterRunAddressTests {
    let broker: BrokerProcess

    init() throws { broker = try BrokerProcess() }

    func broadcaster(_ arguments: [String], drone: String) async throws -> (code: Int32, output: String) {
        try await runToEnd("location-broadcaster", arguments + ["--broker", broker.address, "--drone", drone],
                           logDirectory: broker.directory)
    }

    func fake(_ drone: String) async throws -> FakeController {
        let fake = try await FakeController(
            bus: BusRecorder(port: broker.port, id: "ctl-\(drone)", filters: ["quad/\(drone)/command"]), drone: drone)
        try await fake.announce()
        return fake
    }

    func commands(_ fake: FakeController) -> [Command] {
        fake.bus.messages(on: "quad/\(fake.drone)/command").compactMap { try? Command(decoding: $0.message.payload) }
    }

    @Test(
        "a takeoff goes to the run in the controller's state; refused as for a previous run, once more to the new run")
    func resendToTheRestartedRun() async throws {
        let fake = try await fake("ra1")
        try await fake.publish(.landed, reason: .unspecified, runId: 10)
        let responder = fake.answer(on: "command") { payload in
            guard let command = try? Command(decoding: payload) else { return }
            if command.controllerRunId == 10 {
                // Restarted after the broadcaster read run 10: the new run refuses and names itself.
                try await fake.publish(.landed, reason: .commandForPreviousRun, runId: 11)
            } else if command.controllerRunId == 11 {
                try await fake.publish(.hovering, reason: .airborne, runId: 11)
            }
        }
        defer { responder.cancel() }
        let run = try await broadcaster(["takeoff", "--timeout", "60"], drone: "ra1")
        #expect(run.code == 0, "\(run.output)")
        #expect(run.output.contains("takeoff sent as ") && run.output.contains("to controller run 10"), "\(run.output)")
        #expect(run.output.contains("drone-controller restarted (run 10 → 11)"), "\(run.output)")
        #expect(run.output.contains("controller: hovering (airborne)"), "\(run.output)")
        #expect(commands(fake).map(\.controllerRunId) == [10, 11])
    }

    @Test("the same refusal naming the run we addressed stands: exit 1 with the reason, sent once")
    func refusalForTheAddressedRunStands() async throws {
        let fake = try await fake("ra2")
        try await fake.publish(.landed, reason: .unspecified, runId: 20)
        let responder = fake.answer(on: "command") { _ in
            try await fake.publish(.landed, reason: .commandForPreviousRun, runId: 20)
        }
        defer { responder.cancel() }
        let run = try await broadcaster(["takeoff", "--timeout", "60"], drone: "ra2")
        #expect(run.code == 1, "\(run.output)")
        #expect(run.output.contains("takeoff refused by the controller: command-for-previous-run"), "\(run.output)")
        #expect(commands(fake).map(\.controllerRunId) == [20])
    }

    @Test("without a controller state a command is not sent (exit 1, saying why); an emergency goes unaddressed")
    func noStateNoAddress() async throws {
        let fake = try await fake("ra3")
        let refused = try await broadcaster(["takeoff", "--timeout", "5"], drone: "ra3")
        #expect(refused.code == 1, "\(refused.output)")
        #expect(refused.output.contains("no state from drone-controller for drone 'ra3' yet, so takeoff cannot be "
            + "addressed to its run; nothing sent"), "\(refused.output)")
        let emergency = try await broadcaster(["emergency", "--timeout", "2"], drone: "ra3")
        #expect(emergency.output.contains("sending it unaddressed"), "\(emergency.output)")
        try await eventually(timeout: TestEnvironment.readinessTimeout,
                             "the emergency on the bus") { !commands(fake).isEmpty }
        #expect(commands(fake).map(\.kind) == [.emergency])
        #expect(commands(fake).map(\.controllerRunId) == [RunAddress.none])
    }
}

import InMemoryMQTT
import QuadProtocol
import Testing
@testable import LocationBroadcasterKit

/// A pilot command's exchange with drone-controller: sent addressed to its run, judged by the states it publishes.
@Suite("location-broadcaster command exchange")
struct CommandExchangeTests {
    let broker = InMemoryBroker()
    let drone = DroneID(rawValue: "drone1")!

    /// `settleS`: the retained presence and state normally arrive at once; the exchange stops waiting for them
    /// as soon as both are there, so a patient bound costs nothing unless the test process is starved.
    func exchange(_ kind: Command.Kind, timeoutS: Double = patientS, settleS: Double = patientS,
                  drone: String = "drone1") -> CommandExchange {
        CommandExchange(kind: kind, senderId: "ground1", drone: DroneID(rawValue: drone)!, expiryS: 5,
                        timeoutS: timeoutS, deadlineUs: deadline(afterS: timeoutS), settleS: settleS)
    }

    func sentCommands(_ drone: String = "drone1") -> [Command] {
        broker.published(matching: "quad/\(drone)/command").compactMap { try? Command(decoding: $0.payload) }
    }

    @Test("accepted: takeoff goes to the controller's run and returns once it reports hovering")
    func accepted() async throws {
        let controller = FakeController(broker: broker)
        try controller.start()
        let (_, console) = try await capturingConsole {
            try await exchange(.takeoff).run(client: try groundConnection(broker))
        }
        #expect(sentCommands().map(\.kind) == [.takeoff])
        #expect(sentCommands().first?.controllerRunId == 7)
        #expect(console.out.contains("takeoff sent as ground1 to controller run 7"), "\(console.out)")
        #expect(console.out.contains("controller: hovering (takeoff)"), "\(console.out)")
    }

    @Test("refused: the failure names the controller's reason and who holds control")
    func refused() async throws {
        let controller = FakeController(broker: broker, activity: .hovering, pilot: "other-laptop")
        try controller.start()
        let error = await #expect(throws: CLIFailure.self) {
            try await capturingConsole { try await exchange(.land).run(client: try groundConnection(self.broker)) }
        }
        let message = try #require(error?.message)
        #expect(message.contains("land refused by the controller: not-pilot"), "\(message)")
        #expect(message.contains("pilot other-laptop"), "\(message)")
        #expect(controller.pilot == "other-laptop")
    }

    @Test("a refusal reason of the controller's own (the command's `-refused…`) is passed on")
    func refusedWithItsReason() async throws {
        let controller = FakeController(broker: broker)
        controller.answerCommands(.refuse(reason: .takeoffRefusedBatteryLow))
        try controller.start()
        let error = await #expect(throws: CLIFailure.self) {
            try await capturingConsole { try await exchange(.takeoff).run(client: try groundConnection(self.broker)) }
        }
        #expect(error?.message.contains("takeoff-refused-battery") == true, "\(error?.message ?? "")")
    }

    @Test("no answer: a timeout failure that says what the controller last reported")
    func noAnswer() async throws {
        let controller = FakeController(broker: broker)
        controller.answerCommands(.ignore)
        try controller.start()
        let error = await #expect(throws: CLIFailure.self) {
            try await capturingConsole {
                try await exchange(.hover, timeoutS: 0.4).run(client: try groundConnection(self.broker))
            }
        }
        let message = try #require(error?.message)
        #expect(message.contains("hover: no answer from the controller within 0.4 s"), "\(message)")
        #expect(message.contains("the controller's last state: landed"), "\(message)")
        #expect(sentCommands().count == 1)
    }

    @Test("no controller for the drone: nothing is sent, and the drones that have one are named")
    func noController() async throws {
        try FakeController(broker: broker, drone: "drone1").start()
        let error = await #expect(throws: CLIFailure.self) {
            try await capturingConsole {
                try await exchange(.takeoff, settleS: 2, drone: "drone9").run(client: try groundConnection(self.broker))
            }
        }
        #expect(error?.message == "no drone-controller online for drone 'drone9' (seen: drone1)")
        #expect(sentCommands("drone9").isEmpty)
    }

    @Test("emergency goes out even when no controller is known, and still exits with the reason")
    func emergencyRegardless() async throws {
        let error = await #expect(throws: CLIFailure.self) {
            try await capturingConsole {
                try await exchange(.emergency, settleS: 0.5).run(client: try groundConnection(self.broker))
            }
        }
        #expect(error?.message.hasPrefix("emergency sent, but no drone-controller online") == true,
                "\(error?.message ?? "")")
        #expect(sentCommands().map(\.kind) == [.emergency])
        #expect(sentCommands().first?.controllerRunId == RunAddress.none)
    }

    /// Issue 33 item 9: `hover` exited 0 with `already hovering (not-pilot)`; `land` and `target` exited 1.
    @Test("already in the goal: a refusal (not-pilot) still exits 1 with the reason, for hover too")
    func alreadyHoveringButNotPilot() async throws {
        let controller = FakeController(broker: broker, activity: .hovering, pilot: "pilot-a")
        try controller.start()
        let error = await #expect(throws: CLIFailure.self) {
            try await capturingConsole { try await exchange(.hover).run(client: try groundConnection(self.broker)) }
        }
        let message = try #require(error?.message)
        #expect(message == "hover refused by the controller: not-pilot (activity hovering, pilot pilot-a)")
    }

    @Test("already in the goal: the controller's answer (it answers every command) is waited for: exit 0")
    func alreadyHovering() async throws {
        let controller = FakeController(broker: broker, activity: .hovering)
        try controller.start()
        let (_, console) = try await capturingConsole {
            try await exchange(.hover).run(client: try groundConnection(broker))
        }
        #expect(console.out.last?.hasPrefix("controller: hovering (hover)") == true, "\(console.out)")
    }

    /// A controller that never answers (not drone-controller, which answers every command): only at the deadline
    /// is a command already in its goal taken as accepted — never after a short quiet spell, which on a busy
    /// machine took a late refusal for an acceptance.
    @Test("already in the goal and no answer at all: exit 0 at the deadline, saying there was nothing to change")
    func alreadyHoveringSilentController() async throws {
        let controller = FakeController(broker: broker, activity: .hovering)
        controller.answerCommands(.ignore)
        try controller.start()
        let (_, console) = try await capturingConsole {
            try await exchange(.hover, timeoutS: 3).run(client: try groundConnection(broker))
        }
        #expect(console.out.last == "controller: already hovering: hover accepted, nothing to change", "\(console.out)")
    }

    /// Issue 33 item 13: `land` printed `controller: landing (land)` three times, `takeoff` its line twice: the
    /// controller repeats its state (same sequence) while a flight is under way.
    @Test("a state the controller repeats is printed once")
    func repeatsArePrintedOnce() async throws {
        let controller = FakeController(broker: broker)
        controller.answerCommands(.ignore)
        try controller.start()
        let client = try groundConnection(broker)
        let script = Task {
            #expect(await eventually { self.sentCommands().count == 1 })
            controller.set(.takingOff, reason: .takeoff)
            controller.publishState()
            for _ in 1...3 { controller.publishState(repeating: true) }
            controller.set(.hovering, reason: .airborne)
            controller.publishState()
        }
        let (_, console) = try await capturingConsole { try await exchange(.takeoff).run(client: client) }
        await script.value
        #expect(console.out.filter { $0.hasPrefix("controller: ") }
            == ["controller: taking-off (takeoff)", "controller: hovering (airborne)"], "\(console.out)")
    }
}

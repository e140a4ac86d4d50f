import Foundation
import Navigation
import QuadProtocol
import Testing

/// drone-link against drone-sim over real UDP, with no controller: the test publishes the FlightCommands itself
/// (binary, QoS 0, ~30 Hz) and checks the simulator's ground truth and the link's telemetry.
@Suite("drone-link and drone-sim", .offPool, .enabled(if: TestEnvironment.available("mosquitto")))
struct LinkSimulatorTests {
    static let fly = FlightCommandPlayer.Setting(refMode: .fly)
    static let takeoff = FlightCommandPlayer.Setting(refMode: .fly, takeoffId: 1)
    static let forward = FlightCommandPlayer.Setting(refMode: .fly, progressive: true, pitchFrac: -0.5)
    static let land = FlightCommandPlayer.Setting(refMode: .land)

    @Test("takeoff, navdata on the bus, forward flies north, hover holds position, land")
    func flyByFlightCommands() async throws {
        let rig = try await LinkRig()
        defer { rig.stop() }
        try await rig.takeOff()
        let state = try await rig.latestDroneState { $0.controlState.isAirborne && $0.altitudeM > 0.5 }
        #expect(state.controlState == .hovering)

        let start = try #require(rig.stack.trace().last)
        #expect(abs(Geodesy.wrapDeg180(start.headingDeg)) < 5, "heading \(start.headingDeg)")
        rig.player.play(Self.forward)
        // 3 s of forward flight on the simulator's clock, from the first forward row it saw.
        var firstSeen: TraceRow?
        try await eventually(timeout: TestEnvironment.readinessTimeout, "the forward PCMD\n\(rig.logs)") {
            firstSeen = rig.stack.trace().first { $0.pcmdFlag == 1 && abs($0.pcmdPitch + 0.5) < 0.01 }
            return firstSeen != nil
        }
        try await rig.stack.waitForTrace(until: try #require(firstSeen).timeS + 3)
        rig.player.play(Self.fly)
        // Hover from the first flag-0 row after the forward rows; settle 2 s (velocity lag 0.7 s), then hold 2 s.
        try await rig.stack.waitForTrace(until: (rig.stack.lastRow()?.timeS ?? 0) + 4.5)
        let trace = rig.stack.trace()
        let forwardRows = trace.filter { $0.pcmdFlag == 1 && abs($0.pcmdPitch + 0.5) < 0.01 }
        let lastForward = try #require(forwardRows.last, "the simulator never saw the forward PCMD\n\(rig.logs)")
        let firstForward = try #require(forwardRows.first)
        let end = try #require(trace.first { $0.timeS >= lastForward.timeS + 2 })
        let moved = Geodesy.inverse(from: firstForward.position, to: end.position)
        #expect(moved.distanceM > 4, "flew \(moved.distanceM) m forward")
        #expect(end.position.latitudeDeg > firstForward.position.latitudeDeg)
        let eastM = Geodesy.inverse(from: firstForward.position,
                                    to: GeoPoint(latitudeDeg: firstForward.position.latitudeDeg,
                                                 longitudeDeg: end.position.longitudeDeg)).distanceM
        #expect(eastM < 0.5, "drifted \(eastM) m east-west while flying north")
        let hold = trace.filter { $0.timeS >= end.timeS && $0.timeS <= end.timeS + 2 }
        #expect(hold.count >= 30, "\(hold.count) trace rows in 2 s of hover")
        let drift = hold.map { $0.distanceM(to: end.position) }.max() ?? .infinity
        #expect(drift < 0.5, "hover moved \(drift) m in 2 s")
        #expect(hold.allSatisfy { $0.pcmdFlag == 0 && $0.flightState == "hovering" })

        try await rig.land()
    }

    /// drone-link writes `--max-altitude` into the drone's `control:altitude_max` at connect: full climb for 12 s
    /// (8 m at 0.7 m/s) never takes the simulated drone above 4 m — the aircraft's own ceiling, no controller.
    @Test("--max-altitude on drone-link: the drone never exceeds control:altitude_max, whatever the commands ask")
    func ceilingHeldByTheDrone() async throws {
        let rig = try await LinkRig(linkArguments: ["--max-altitude", "4"])
        defer { rig.stop() }
        try await rig.takeOff()
        rig.player.play(.init(refMode: .fly, progressive: true, gazFrac: 1))
        // 12 s of the simulator's time (a sleep on a loaded machine may cover less of the climb).
        try await rig.stack.waitForTrace(until: (rig.stack.lastRow()?.timeS ?? 0) + 12)
        let trace = rig.stack.trace()
        let highestM = trace.map(\.altitudeM).max() ?? 0
        #expect(highestM <= 4.0, "climbed to \(highestM) m")
        #expect(highestM > 3.9, "never reached the ceiling: \(highestM) m\n\(rig.logs)")
        #expect(trace.contains { $0.pcmdGaz > 0.99 }, "the simulator never saw the climb command")
        #expect(rig.stack.process("drone-sim")?.output().contains("control:altitude_max = 4000") == true)
        try await rig.land()
    }

    @Test("controller dead: the link hovers within 250 ms, keeps the fly bit and the link, reports it")
    func controllerDead() async throws {
        let rig = try await LinkRig()
        defer { rig.stop() }
        try await rig.takeOff()
        rig.player.play(Self.forward)
        try await Task.sleep(for: .seconds(1))
        // The last command the link ever gets has its own roll, so the trace shows when it arrived.
        await rig.player.stop()
        rig.player.publishOnce(.init(refMode: .fly, progressive: true, rollFrac: 0.2, pitchFrac: -0.5))
        var last: TraceRow?
        try await eventually(timeout: TestEnvironment.readinessTimeout,
                             "the last command in the trace\n\(rig.logs)") {
            last = rig.stack.trace().first { $0.pcmdFlag == 1 && abs($0.pcmdRoll - 0.2) < 0.01 }
            return last != nil
        }
        let lastCommand = try #require(last)
        // Past the simulator's 2 s link-loss time: the link must keep sending (hover, fly bit) on its own.
        try await rig.stack.waitForTrace(until: lastCommand.timeS + 3)
        let trace = rig.stack.trace()
        let hover = try #require(trace.first { $0.timeS > lastCommand.timeS && $0.pcmdFlag == 0 },
                                 "never switched to hover\n\(rig.logs)")
        let delayS = hover.timeS - lastCommand.timeS
        // 250 ms command timeout + 50 ms trace sampling + slack.
        #expect(delayS <= 0.4, "hover \(delayS) s after the last command")
        #expect(delayS >= 0.15, "hover only \(delayS) s after the last command: the command was not held")
        let after = trace.filter { $0.timeS >= hover.timeS }
        #expect(after.allSatisfy { $0.pcmdFlag == 0 && $0.isAirborne && $0.altitudeM > 0.5 },
                "the drone must hover in the air, not land")
        #expect(trace.allSatisfy { !$0.linkLost }, "the simulator lost the link\n\(rig.logs)")

        // The link's 1 Hz statuses reach the recorder through the test process's task pool, which a busy run
        // starves: wait for them to catch up with the trace (the simulator's file) rather than read a snapshot.
        var link: [LinkStatus] = []
        do {
            try await eventually(timeout: .seconds(60),
                                 "a command-timeout hover on link status, still hovering and connected") {
                link = rig.linkStatuses()
                return link.contains { $0.fallbackHover && $0.reason == .commandTimeout }
                    && link.last.map { $0.connected && $0.fallbackHover } == true
            }
        } catch {
            Issue.record("\(error)\n\(link)")
        }

        // Commands again: the link follows them at once.
        try await rig.land()
    }

    @Test("--drop-rate 0.2: takeoff, forward and land still work")
    func lossyLink() async throws {
        let rig = try await LinkRig(simArguments: ["--drop-rate", "0.2"])
        defer { rig.stop() }
        try await rig.takeOff()
        let start = try #require(rig.stack.trace().last)
        rig.player.play(Self.forward)
        try await eventually(timeout: TestEnvironment.flightPhaseTimeout, "5 m north\n\(rig.logs)") {
            guard let now = rig.stack.trace().last else { return false }
            return now.position.latitudeDeg > start.position.latitudeDeg && now.distanceM(to: start.position) > 5
        }
        rig.player.play(Self.fly)
        try await rig.land()
        #expect(rig.stack.trace().allSatisfy { !$0.linkLost }, "the simulator lost the link\n\(rig.logs)")
    }
}

/// mosquitto + drone-sim + drone-link, the test's flight command publisher and a recorder of the link's telemetry.
private struct LinkRig {
    let stack: FlightStack
    let player: FlightCommandPlayer
    let bus: BusRecorder

    init(simArguments: [String] = [], linkArguments: [String] = []) async throws {
        stack = try FlightStack(simArguments: simArguments, linkArguments: linkArguments, services: [])
        try await stack.waitUntilReady(services: ["drone-link"])
        let drone = DroneID(rawValue: stack.drone) ?? .default
        bus = try await BusRecorder(port: stack.broker.port, id: "link-telemetry",
                                    filters: [Topics.droneState.topic(for: drone), Topics.linkStatus.topic(for: drone)])
        player = try await FlightCommandPlayer(port: stack.broker.port, drone: stack.drone)
    }

    var logs: String { stack.logs() }

    func takeOff() async throws {
        player.play(LinkSimulatorTests.takeoff)
        try await eventually(timeout: TestEnvironment.flightPhaseTimeout, "hovering at ~1 m\n\(logs)") {
            stack.trace().last.map { $0.flightState == "hovering" && abs($0.altitudeM - 1) < 0.2 } == true
        }
    }

    func land() async throws {
        player.play(LinkSimulatorTests.land)
        try await eventually(timeout: TestEnvironment.flightPhaseTimeout, "landed\n\(logs)") {
            stack.trace().last.map { $0.flightState == "landed" && $0.altitudeM == 0 } == true
        }
    }

    /// The newest DroneState on `telemetry/drone` once one satisfies `condition`.
    func latestDroneState(where condition: @escaping (DroneState) -> Bool) async throws -> DroneState {
        let topic = Topics.droneState.topic(for: DroneID(rawValue: stack.drone) ?? .default)
        var found: DroneState?
        try await eventually(timeout: TestEnvironment.readinessTimeout, "a DroneState on \(topic)\n\(logs)") {
            found = bus.messages(on: topic).last.flatMap { try? DroneState(decoding: $0.message.payload) }
            return found.map(condition) == true
        }
        return try #require(found)
    }

    func linkStatuses() -> [LinkStatus] {
        let topic = Topics.linkStatus.topic(for: DroneID(rawValue: stack.drone) ?? .default)
        return bus.messages(on: topic).compactMap { try? LinkStatus(decoding: $0.message.payload) }
    }

    func stop() {
        player.client.shutdown()
        bus.client.shutdown()
        stack.stop()
    }
}

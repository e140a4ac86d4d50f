import Clocks
import MAVLink
import MAVLinkCompanion
import QuadProtocol
import Testing

@Suite("mavlink-link state machine")
struct CompanionStateMachineTests {
    /// Connected to an autopilot that answered the stream-rate requests.
    static func connected() -> AutopilotHarness {
        var h = AutopilotHarness()
        h.heartbeat()
        h.run(forUs: 1_000_000)
        return h
    }

    @Test func learnsTheAutopilotAndAsksForStreams() {
        let h = Self.connected()
        #expect(h.machine.target?.system == 1 && h.machine.target?.component == 1)
        let intervals = h.commandsSent.filter { $0.command == MAVCmd.setMessageInterval }
        #expect(Set(intervals.map { UInt32($0.param(1)) }) == Set(CompanionStateMachine.streamIntervalsUs.map(\.0)))
        #expect(intervals.allSatisfy { $0.targetSystem == 1 && $0.targetComponent == 1 && $0.confirmation == 0 })
        #expect(h.statuses.last?.connected == true)
        #expect(h.sent.allSatisfy { $0.systemId == 245 && $0.componentId == 191 })
    }

    @Test func takeoffArmsTakesOffThenSwitchesToOffboard() {
        var h = Self.connected()
        h.command(.fly, takeoffId: 42)
        h.run(forUs: 500_000, commandsEveryUs: 33_000, flight: AutopilotHarness.takeoff)
        let numbers = h.commandsSent.map(\.command).filter { $0 != MAVCmd.setMessageInterval }
        #expect(numbers.prefix(2) == [MAVCmd.componentArmDisarm, MAVCmd.navTakeoff])
        #expect(h.commandsSent.first { $0.command == MAVCmd.navTakeoff }?.param(7).isNaN == true)
        #expect(!numbers.contains(MAVCmd.doSetMode), "no offboard before the autopilot is in the air")
        h.landed = .inAir
        h.mode = .hold
        h.run(forUs: 1_500_000, commandsEveryUs: 33_000, flight: AutopilotHarness.takeoff)
        let modes = h.commandsSent.filter { $0.command == MAVCmd.doSetMode }
        #expect(modes.count == 1 && modes.first?.param(2) == Float(PX4Mode.mainOffboard))
        #expect(h.mode == .offboard)
    }

    @Test func progressiveCommandsBecomeBodyVelocitySetpointsAtTwentyHertz() throws {
        var h = Self.connected()
        let before = h.setpoints.count
        let forward = FlightCommand(sequence: 1, timestampUs: 0, refMode: .fly, progressive: true, rollFrac: 0.1,
                                    pitchFrac: -0.2, gazFrac: 0.5, yawFrac: -0.3)
        h.run(forUs: 1_000_000, commandsEveryUs: 33_000, flight: forward)
        let stream = h.setpoints[before...]
        #expect(stream.count >= 19, "≥ 10 Hz required, 20 Hz planned: \(stream.count)")
        let last = try #require(stream.last)
        #expect(last.coordinateFrame == MAVFrame.bodyNED && last.typeMask == 1479)
        #expect(abs(last.vxMps - 1.0) < 1e-5 && abs(last.vyMps - 0.5) < 1e-5)
        #expect(abs(last.vzMps - -0.35) < 1e-5)
        #expect(abs(last.yawRateRadps - -0.3 * 100 * .pi / 180) < 1e-5)
    }

    @Test func staleCommandsBecomeZeroVelocityAndTheStatusSaysSo() throws {
        var h = Self.connected()
        h.command(.fly, progressive: true, pitch: -0.5)
        h.run(forUs: 200_000)
        #expect(h.setpoints.last?.vxMps == 2.5)
        h.run(forUs: 100_000)
        #expect(h.setpoints.last?.vxMps == 0)
        #expect(h.statuses.last?.fallbackHover == true && h.statuses.last?.reason == .commandTimeout)
        // Setpoints keep flowing while commands are missing.
        let count = h.setpoints.count
        h.run(forUs: 1_000_000)
        #expect(h.setpoints.count - count >= 19)
        h.command(.fly, progressive: true, pitch: -0.5)
        #expect(h.statuses.last?.reason == .ok)
    }

    @Test func heartbeatLossIsReportedWithinThreeSeconds() {
        var h = Self.connected()
        h.run(forUs: 3_100_000, heartbeats: false)
        #expect(h.statuses.last?.connected == false && h.statuses.last?.reason == .navdataLost)
        #expect(h.logs.contains { $0.contains("heartbeat lost") })
        h.heartbeat()
        #expect(h.statuses.last?.connected == true)
    }

    @Test func landAndEmergency() {
        var h = Self.connected()
        h.armed = true
        h.landed = .inAir
        h.mode = .hold
        h.heartbeat()
        h.command(.fly, takeoffId: 42)
        h.command(.land)
        h.run(forUs: 100_000)
        // Outside OFFBOARD PX4 lands itself (in OFFBOARD the link flies the descent: OffboardLandingTests).
        #expect(h.commandsSent.last?.command == MAVCmd.navLand)
        h.command(.emergencyCutoff)
        h.run(forUs: 100_000)
        let disarm = h.commandsSent.last
        #expect(disarm?.command == MAVCmd.componentArmDisarm && disarm?.param(1) == 0 && disarm?.param(2) == 21196)
        #expect(h.armed == false)
    }

    @Test func unansweredCommandsAreRetriedThenReportedFailed() {
        var h = AutopilotHarness()
        h.answer = nil
        h.heartbeat()
        h.run(forUs: 2_100_000)
        let first = h.commandsSent.filter { $0.command == MAVCmd.setMessageInterval && $0.param(1) == 33 }
        #expect(first.map(\.confirmation) == [0, 1, 2, 3, 4])
        #expect(h.logs.contains { $0.contains("no COMMAND_ACK after 5 attempts") })
    }

    @Test func deniedResultsAreLogged() {
        var h = AutopilotHarness()
        h.answer = { $0.command == MAVCmd.componentArmDisarm ? .denied : .accepted }
        h.heartbeat()
        h.run(forUs: 500_000)
        h.command(.fly, takeoffId: 42)
        h.run(forUs: 500_000, commandsEveryUs: 33_000, flight: AutopilotHarness.takeoff)
        #expect(h.logs.contains("arm (MAV_CMD 400): denied"))
        #expect(h.machine.lastCommandOutcome?.label == "takeoff")
    }

    /// Every answer is on telemetry/link at once, in order: a refused takeoff is seen on the ground, not only in the
    /// log.
    @Test func eachAcknowledgementIsPublishedInLinkStatusAtOnce() throws {
        var h = Self.connected()
        #expect(h.statuses.last?.commandAck?.command == .setMessageInterval)
        h.answer = {
            $0.command == MAVCmd.componentArmDisarm ? .denied : ($0.command == MAVCmd.navTakeoff ? .denied : .accepted)
        }
        let before = h.statuses.count
        h.command(.fly, takeoffId: 42)
        let acks = h.statuses[before...].compactMap(\.commandAck)
        #expect(acks.map(\.command) == [.arm, .takeoff])
        #expect(acks.allSatisfy { $0.result == .denied && $0.ageMs == 0 })
        #expect(h.logs.contains("arm (MAV_CMD 400): denied") && h.logs.contains("takeoff (MAV_CMD 22): denied"))
        // The periodic status keeps saying so, with the answer's age.
        h.run(forUs: 2_000_000)
        let last = try #require(h.statuses.last?.commandAck)
        #expect(last.command == .takeoff && last.result == .denied && last.result.isRefusal)
        #expect(last.ageMs >= 1_000 && last.ageMs <= 2_000)
    }

    @Test func acceptedTakeoffShowsArmThenTakeoffThenOffboard() {
        var h = Self.connected()
        let before = h.statuses.count
        h.command(.fly, takeoffId: 42)
        h.landed = .inAir
        h.run(forUs: 1_500_000, commandsEveryUs: 33_000, flight: AutopilotHarness.takeoff)
        let acks = h.statuses[before...].compactMap(\.commandAck).filter { $0.ageMs == 0 }
        #expect(acks.map(\.command) == [.arm, .takeoff, .setMode])
        #expect(acks.allSatisfy { $0.result == .accepted })
    }

    @Test func noAnswerAfterTheRetriesIsPublished() throws {
        var h = AutopilotHarness()
        h.answer = nil
        h.heartbeat()
        #expect(h.statuses.last?.commandAck == nil, "nothing answered yet")
        h.run(forUs: 2_100_000)
        let ack = try #require(h.statuses.last?.commandAck)
        #expect(ack.command == .setMessageInterval && ack.result == .noAnswer)
    }

    @Test func inProgressAndEmergencyAnswersAreNamed() throws {
        var h = Self.connected()
        h.armed = true
        h.landed = .inAir
        h.heartbeat()
        h.answer = { $0.command == MAVCmd.navLand ? .inProgress : .accepted }
        h.command(.land)
        #expect(h.statuses.last?.commandAck == LinkStatus.CommandAck(command: .land, result: .inProgress, ageMs: 0))
        #expect(h.statuses.last?.commandAck?.result.isRefusal == false)
        h.answer = { _ in .failed }
        h.command(.emergencyCutoff)
        h.run(forUs: 10_000)
        #expect(h.statuses.last?.commandAck?.command == .forceDisarm && h.statuses.last?.commandAck?.result == .failed)
    }

    @Test func telemetryBecomesDroneStateAndPositionFix() throws {
        var h = Self.connected()
        h.armed = true
        h.landed = .inAir
        h.heartbeat()
        h.feed(Attitude(timeBootMs: 0, rollRad: 0.1, pitchRad: -0.05, yawRad: .pi / 2))
        h.feed(GPSRawInt(timeUs: 0, latE7: 525_163_000, lonE7: 133_777_000, altMm: 34_000, fixType: 3,
                         satellitesVisible: 10, hAccMm: 400))
        h.feed(SysStatus(voltageBatteryMv: 12_000, batteryRemainingPct: 18))
        // Flying east at 2 m/s with the nose east: 2 m/s forward.
        h.feed(GlobalPositionInt(timeBootMs: 0, latE7: 525_163_000, lonE7: 133_777_000, altMm: 36_500,
                                 relativeAltMm: 2_500, vxCmps: 0, vyCmps: 200, vzCmps: -10, hdgCdeg: 9000))
        let state = try #require(h.actions.compactMap { if case .publishDroneState(let s) = $0 { s } else { nil } }
            .last)
        #expect(state.controlState == .hovering && state.stateBits & 1 == 1 && state.stateBits & (1 << 15) != 0)
        #expect(state.batteryPercent == 18 && abs(state.altitudeM - 2.5) < 1e-6)
        #expect(abs(state.velocityXMps - 2) < 1e-4 && abs(state.velocityYMps) < 1e-4
            && abs(state.velocityZMps - 0.1) < 1e-6)
        #expect(state.magnetoHeadingDeg == 90 && abs(state.pitchDeg - -0.05 * 180 / .pi) < 1e-3)
        let fix = try #require(h.actions.compactMap { if case .publishPosition(let p) = $0 { p } else { nil } }.last)
        #expect(fix.latitudeDeg == 52.5163 && fix.longitudeDeg == 13.3777 && fix.satellites == 10)
        #expect(fix.horizontalAccuracyM == 0.4 && fix.altitudeM == 36.5)
    }

    @Test func garbageAndForeignSystemsAreCountedNotObeyed() {
        var h = Self.connected()
        h.record(h.machine.datagram([0xFD, 0x09, 0x00, 0x00, 0x01, 0x01, 0x01, 0x00, 0x00, 0x00]
            + Array(repeating: 0, count: 11),
                                    now: .init(us: h.nowUs)))
        #expect(h.machine.counters.badCRC == 1)
        var stranger = MAVLinkEncoder(systemId: 9, componentId: 1)
        h.record(h.machine.datagram(stranger.encode(GlobalPositionInt(
            timeBootMs: 0, latE7: 1, lonE7: 1, altMm: 0, relativeAltMm: 0, vxCmps: 0, vyCmps: 0, vzCmps: 0,
            hdgCdeg: 0)),
            now: .init(us: h.nowUs)))
        #expect(!h.actions.contains { if case .publishDroneState = $0 { true } else { false } })
        #expect(!h.machine.lastDatagramWasFromAutopilot, "a stranger's datagram must not become the reply address")
        h.heartbeat()
        #expect(h.machine.lastDatagramWasFromAutopilot)
    }

    @Test func ardupilotGetsGuidedBeforeArmingAndItsOwnNumbers() {
        var h = AutopilotHarness()
        h.autopilotType = MAVAutopilot.ardupilot
        h.heartbeat()
        h.run(forUs: 1_000_000)
        h.command(.fly, takeoffId: 42)
        h.run(forUs: 300_000, commandsEveryUs: 33_000, flight: AutopilotHarness.takeoff)
        let flight = h.commandsSent.filter { $0.command != MAVCmd.setMessageInterval }
        #expect(flight.map(\.command) == [MAVCmd.doSetMode, MAVCmd.componentArmDisarm, MAVCmd.navTakeoff])
        #expect(flight.first?.param(2) == 4, "GUIDED")
        #expect(flight.last?.param(7) == 2.5, "metres above home")
        // No setpoint during the takeoff climb (one would cancel ArduCopter's takeoff), then setpoints again.
        let setpointsBefore = h.setpoints.count
        h.landed = .inAir
        h.run(forUs: 500_000, commandsEveryUs: 33_000, flight: AutopilotHarness.takeoff)
        #expect(h.setpoints.count == setpointsBefore, "a setpoint during ArduPilot's takeoff climb")
        h.position(relativeAltM: 2.4)
        h.run(forUs: 500_000, commandsEveryUs: 33_000, flight: AutopilotHarness.takeoff)
        #expect(h.setpoints.count > setpointsBefore + 5, "setpoints again after the climb")
        // Knocked out of GUIDED in the air (e.g. LOITER): asked back.
        h.ardupilotMode = 5
        h.heartbeat()
        h.run(forUs: 1_500_000, commandsEveryUs: 33_000, flight: AutopilotHarness.takeoff)
        #expect(h.commandsSent.last?.command == MAVCmd.doSetMode && h.commandsSent.last?.param(2) == 4)
        h.command(.land)
        h.run(forUs: 100_000)
        #expect(h.commandsSent.last?.command == MAVCmd.navLand && h.commandsSent.last?.param(5) == 0)
    }
}

@Suite("mavlink-link setpoints on new commands")
struct ImmediateSetpointTests {
    static func turn(_ yaw: Float) -> FlightCommand {
        FlightCommand(sequence: 1, timestampUs: 0, refMode: .fly, progressive: true, yawFrac: yaw)
    }

    /// Hovering with a stream running, the last setpoint 30 ms ago.
    static func streaming() -> AutopilotHarness {
        var h = CompanionStateMachineTests.connected()
        h.record(h.machine.flightCommand(turn(0.5), now: .init(us: h.nowUs)))
        h.run(forUs: 130_000)
        h.run(forUs: h.setpointTimesUs[h.setpointTimesUs.count - 1] + 30_000 - h.nowUs)
        return h
    }

    @Test func aCommandThatChangesTheSetpointIsSentAtOnce() throws {
        var h = Self.streaming()
        let before = h.setpoints.count
        h.nowUs += 1_000
        h.record(h.machine.flightCommand(Self.turn(-0.5), now: .init(us: h.nowUs)))
        #expect(h.setpoints.count == before + 1, "the new setpoint goes out with the command, not with the next tick")
        let setpoint = try #require(h.setpoints.last)
        #expect(abs(setpoint.yawRateRadps - -0.5 * 100 * .pi / 180) < 1e-5)
        #expect(h.setpointTimesUs.last == h.nowUs)
        // The same command again changes nothing: it rides the stream.
        h.nowUs += 25_000
        h.record(h.machine.flightCommand(Self.turn(-0.5), now: .init(us: h.nowUs)))
        #expect(h.setpoints.count == before + 1)
    }

    /// A burst of changes goes out at once up to the budget's burst; the next waits for the budget, then goes out.
    @Test func changesBeyondTheBurstAreHeldBackThenSentWhenTheBudgetAllows() throws {
        var h = Self.streaming()
        let timing = h.machine.timing
        let intervalUs = timing.changedSetpointInterval.us
        let count = h.setpoints.count
        let firstUs = h.nowUs + 1_000
        for i in 0..<timing.changedSetpointBurst {
            h.nowUs = firstUs + Int64(i) * 1_000
            h.record(h.machine.flightCommand(Self.turn(i.isMultiple(of: 2) ? -0.5 : 0.5), now: .init(us: h.nowUs)))
        }
        #expect(h.setpoints.count == count + timing.changedSetpointBurst, "the burst goes out at once")
        let lastYaw = try #require(h.setpoints.last).yawRateRadps
        h.nowUs += 1_000
        h.record(h.machine.flightCommand(Self.turn(lastYaw > 0 ? -0.5 : 0.5), now: .init(us: h.nowUs)))
        #expect(h.setpoints.count == count + timing.changedSetpointBurst, "over budget: held back")
        #expect(h.machine.nextDeadline?.us == firstUs + intervalUs)
        h.run(forUs: firstUs + intervalUs - h.nowUs, heartbeats: false)
        #expect(h.setpoints.count == count + timing.changedSetpointBurst + 1)
        #expect(h.setpointTimesUs.last == firstUs + intervalUs)
        #expect(try #require(h.setpoints.last).yawRateRadps * lastYaw < 0, "the command in force, not a stale one")
    }

    /// 10 000 alternating commands in one second: setpoints at the 50 Hz budget (never more than the burst above
    /// it in any stretch of time), each the command in force when it left.
    @Test func aFloodOfCommandsIsRateBounded() throws {
        var h = Self.streaming()
        let timing = h.machine.timing
        let first = h.setpoints.count
        let startUs = h.nowUs
        for i in 0..<10_000 {
            h.nowUs = startUs + Int64(i) * 100
            let yaw: Float = i.isMultiple(of: 2) ? -0.5 : 0.5
            h.record(h.machine.flightCommand(Self.turn(yaw), now: .init(us: h.nowUs)))
            if let deadline = h.machine.nextDeadline?.us, deadline <= h.nowUs {
                h.record(h.machine.tick(now: .init(us: h.nowUs)))
            }
        }
        let times = Array(h.setpointTimesUs[first...])
        #expect(times.count >= 49 && times.count <= 50 + timing.changedSetpointBurst, "\(times.count) setpoints in 1 s")
        for i in times.indices {
            for j in times.indices where j > i {
                let allowed = timing.changedSetpointBurst
                    + Int((times[j] - times[i]) / timing.changedSetpointInterval.us)
                #expect(j - i + 1 <= allowed, "\(j - i + 1) setpoints in \(times[j] - times[i]) µs")
            }
        }
    }

    /// The command timeout's zero-velocity setpoint is a change too: it goes out at the timeout, not up to 50 ms later.
    @Test func theCommandTimeoutSendsHoverAtOnce() throws {
        var h = Self.streaming()
        h.record(h.machine.flightCommand(Self.turn(-0.5), now: .init(us: h.nowUs)))
        // The same command 30 ms later: fresh, no setpoint of its own, so the timeout falls 30 ms after a tick of
        // the stream and 20 ms before the next one.
        h.run(forUs: 30_000, heartbeats: false)
        let lastCommandUs = h.nowUs
        h.record(h.machine.flightCommand(Self.turn(-0.5), now: .init(us: h.nowUs)))
        let from = h.setpoints.count
        h.run(forUs: 300_000, heartbeats: false)
        let hover = try #require(h.setpoints[from...].firstIndex { $0.yawRateRadps == 0 })
        #expect(h.setpointTimesUs[hover] == lastCommandUs + h.machine.timing.commandTimeout.us)
    }
}

@Suite("mavlink-link before the autopilot")
struct WaitingForAutopilotTests {
    /// Without an autopilot there is nothing to send; the next deadline must still be in the future, or the
    /// executable's poll() loop spins a core until the first HEARTBEAT.
    @Test func theDeadlineIsInTheFutureWhileNoAutopilotIsKnown() throws {
        var machine = CompanionStateMachine()
        var nowUs: Int64 = 1_000_000
        _ = machine.start(now: .init(us: nowUs))
        _ = machine.flightCommand(FlightCommand(sequence: 1, timestampUs: 0, refMode: .fly, progressive: true,
                                                pitchFrac: -0.5), now: .init(us: nowUs))
        var ticks = 0
        while nowUs < 2_000_000 {
            nowUs = max(nowUs, try #require(machine.nextDeadline?.us))
            _ = machine.tick(now: .init(us: nowUs))
            ticks += 1
            #expect(try #require(machine.nextDeadline?.us) > nowUs)
            if ticks > 1_000 { break }
        }
        #expect(ticks <= 50, "\(ticks) wake-ups in 1 s with no autopilot")
    }
}

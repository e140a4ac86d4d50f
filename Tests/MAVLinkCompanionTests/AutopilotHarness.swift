import MAVLink
import MAVLinkCompanion
import QuadProtocol

/// Drives a `CompanionStateMachine` on simulated time and plays a PX4-like autopilot (system 1, component 1).
struct AutopilotHarness {
    var machine = CompanionStateMachine()
    var autopilot = MAVLinkEncoder(systemId: 1, componentId: 1)
    var nowUs: Int64 = 1_000_000
    /// Everything the machine did, in order.
    var actions: [CompanionAction] = []
    /// The companion's frames, decoded.
    var sent: [MAVLinkPacket] = []
    /// When each SET_POSITION_TARGET_LOCAL_NED was sent (simulated time), in order.
    var setpointTimesUs: [Int64] = []
    var armed = false
    var mode = PX4Mode.hold
    var landed = ExtendedSysState.LandedState.onGround
    /// Answer every COMMAND_LONG with this (nil: stay silent).
    var answer: ((CommandLong) -> MAVResult?)? = { _ in .accepted }
    /// MAV_AUTOPILOT in our heartbeats (PX4 unless a test says ArduPilot).
    var autopilotType = MAVAutopilot.px4
    /// ArduPilot's custom_mode (the harness models PX4's `mode` otherwise).
    var ardupilotMode: UInt32 = 5

    init() {
        record(machine.start(now: .init(us: nowUs)))
    }

    mutating func record(_ new: [CompanionAction]) {
        actions += new
        var parser = MAVLinkStreamParser()
        var commands: [CommandLong] = []
        for case .send(let bytes) in new {
            for case .packet(let packet) in parser.datagram(bytes) {
                sent.append(packet)
                if case .setPositionTargetLocalNED = packet.message { setpointTimesUs.append(nowUs) }
                if case .commandLong(let command) = packet.message { commands.append(command) }
            }
        }
        // The autopilot answers at once.
        for command in commands {
            guard let result = answer?(command) else { continue }
            apply(command, result)
            feed(CommandAck(command: command.command, result: result, targetSystem: 245, targetComponent: 191))
        }
    }

    mutating func feed<M: MAVLinkMessage>(_ message: M) {
        record(machine.datagram(autopilot.encode(message), now: .init(us: nowUs)))
    }

    mutating func heartbeat() {
        let base = MAVModeFlag.customModeEnabled | (armed ? MAVModeFlag.safetyArmed : 0)
        let customMode = autopilotType == MAVAutopilot.ardupilot ? ardupilotMode : mode.customMode
        feed(Heartbeat(customMode: customMode, type: MAVType.quadrotor, autopilot: autopilotType,
                       baseMode: base, systemStatus: MAVState.active))
        feed(ExtendedSysState(landedState: landed))
    }

    /// The controller's command while taking off: `fly` with a takeoff id (fly alone never arms).
    static let takeoff = FlightCommand(sequence: 1, timestampUs: 0, refMode: .fly, takeoffId: 42)

    mutating func command(_ command: FlightCommand.RefMode, progressive: Bool = false, pitch: Float = 0,
                          roll: Float = 0, gaz: Float = 0, yaw: Float = 0, takeoffId: UInt32 = 0) {
        record(machine.flightCommand(FlightCommand(sequence: 1, timestampUs: 0, refMode: command,
                                                   progressive: progressive, rollFrac: roll, pitchFrac: pitch,
                                                   gazFrac: gaz, yawFrac: yaw, takeoffId: takeoffId),
                                      now: .init(us: nowUs)))
    }

    /// GLOBAL_POSITION_INT at this height above home (ArduPilot's takeoff climb ends near 2.5 m).
    mutating func position(relativeAltM: Double) {
        feed(GlobalPositionInt(timeBootMs: 0, latE7: 525_163_000, lonE7: 133_777_000, altMm: 34_000,
                               relativeAltMm: Int32(relativeAltM * 1000), vxCmps: 0, vyCmps: 0, vzCmps: 0,
                               hdgCdeg: 0))
    }

    /// Advances time, ticking at every deadline and answering commands (like the autopilot would, at once).
    mutating func run(forUs: Int64, heartbeats: Bool = true, commandsEveryUs: Int64? = nil,
                      flight: FlightCommand? = nil) {
        let endUs = nowUs + forUs
        var nextHeartbeatUs = nowUs
        var nextCommandUs = nowUs
        while nowUs < endUs {
            var next = min(machine.nextDeadline?.us ?? endUs, endUs)
            if heartbeats { next = min(next, nextHeartbeatUs) }
            if commandsEveryUs != nil { next = min(next, nextCommandUs) }
            nowUs = max(nowUs, next)
            if heartbeats, nowUs >= nextHeartbeatUs {
                heartbeat()
                nextHeartbeatUs = nowUs + 1_000_000
            }
            if let every = commandsEveryUs, let flight, nowUs >= nextCommandUs {
                record(machine.flightCommand(flight, now: .init(us: nowUs)))
                nextCommandUs = nowUs + every
            }
            record(machine.tick(now: .init(us: nowUs)))
            if next == endUs, nowUs >= endUs { break }
            if machine.nextDeadline?.us ?? endUs <= nowUs { nowUs += 1 }
        }
    }

    /// What a PX4 would do with an accepted command.
    mutating func apply(_ command: CommandLong, _ result: MAVResult) {
        guard result == .accepted else { return }
        switch command.command {
        case MAVCmd.componentArmDisarm: armed = command.param(1) == 1
        case MAVCmd.navTakeoff: mode = .takeoff; landed = .takeoff
        case MAVCmd.navLand: mode = .land; landed = .landing
        case MAVCmd.doSetMode:
            mode = PX4Mode(main: UInt8(command.param(2)), sub: UInt8(command.param(3)))
            ardupilotMode = UInt32(command.param(2))
        default: break
        }
    }

    var commandsSent: [CommandLong] {
        sent.compactMap { if case .commandLong(let c) = $0.message { c } else { nil } }
    }

    var setpoints: [SetPositionTargetLocalNED] {
        sent.compactMap { if case .setPositionTargetLocalNED(let s) = $0.message { s } else { nil } }
    }

    var statuses: [LinkStatus] {
        actions.compactMap { if case .publishLinkStatus(let s) = $0 { s } else { nil } }
    }

    var logs: [String] {
        actions.compactMap { if case .log(_, let text) = $0 { text } else { nil } }
    }
}

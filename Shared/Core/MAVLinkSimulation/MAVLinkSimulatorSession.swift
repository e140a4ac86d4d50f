import Clocks
import DroneSimulation
import MAVLink
import Navigation

/// The simulated airframe behind a PX4-like MAVLink face (system 1, component 1), as a pure state machine:
/// datagrams in, datagrams / trace rows / log lines out, time with every event (the loop's monotonic clock; the
/// timers stay microseconds inside). Measured against PX4 SITL (SIH, 2025-02): see docs/mavlink-vehicles.md.
///
/// What it does like PX4: HEARTBEAT at 1 Hz with PX4 `custom_mode` and base mode; a position estimate and home
/// `positionReady` after start (before it: no GLOBAL_POSITION_INT, no HOME_POSITION, arming temporarily
/// rejected); arm (denied unless landed with battery), disarm (denied in the air unless forced with 21196, which
/// cuts the motors); NAV_TAKEOFF to param7 (AMSL) or MIS_TAKEOFF_ALT, then hold; NAV_LAND; disarm COM_DISARM_LAND
/// after touchdown; DO_SET_MODE to OFFBOARD (only armed, in the air and with setpoints streaming), hold, land,
/// return; DO_REPOSITION (COMMAND_INT or COMMAND_LONG) flown in hold; RTL home, then land; offboard velocity or
/// position setpoints; setpoints lost for COM_OF_LOSS_T → "Failsafe activated" and COM_OBL_RC_ACT's action
/// (default Position mode, which without RC descends, lands and disarms); the parameter protocol for the few
/// parameters in `PX4Parameters`; SET_MESSAGE_INTERVAL, REQUEST_MESSAGE; every command answered by COMMAND_ACK.
public struct MAVLinkSimulatorSession: Sendable {
    public let configuration: SimulatorConfiguration
    public internal(set) var drone: SimulatedDrone
    public internal(set) var isArmed = false
    public internal(set) var mode = PX4Mode.hold
    /// Which autopilot the face imitates: PX4, or ArduPilot Copter (`MAVLinkSimulatorSession+ArduCopter`).
    public let autopilot: SimulatedAutopilot
    /// The ArduCopter face's mode, parameters and takeoff (unused by the PX4 face).
    public var arduCopter = ArduCopterState()
    /// Where telemetry goes besides `gcs`: the latest sender.
    public private(set) var lastSender: UDPEndpoint?
    public let gcs: UDPEndpoint?

    /// COM_OF_LOSS_T, COM_OBL_RC_ACT, MIS_TAKEOFF_ALT, … (PARAM_SET, or `--px4-param`).
    public var parameters = PX4Parameters()
    /// Time from start to a position estimate and home (PX4 SIH: ~2 s; the simulator's GPS needs no warm-up).
    public var positionReady: Duration = .seconds(1)
    /// Altitude above mean sea level of the home point (GLOBAL_POSITION_INT.alt).
    public var homeAltitudeAMSLM = 34.0
    /// PX4 disarms a vehicle armed on the ground that does not take off (COM_DISARM_PRFLT).
    public var preflightDisarm: Duration = .seconds(10)
    /// The PX4 face's ceiling: PX4 has none of its own (its geofence height GF_MAX_VER_DIST is off by default), so
    /// MIS_TAKEOFF_ALT (up to 80 m here) is flown as set, not capped by the AR.Drone's 3 m `altitude_max`.
    public static let px4CeilingM = 100.0
    /// RTL returns at RTL_RETURN_ALT but no higher than this or the altitude it flies at: a shortcut that keeps
    /// the face's returns short (the real PX4 climbs to RTL_RETURN_ALT, 60 m by default, far from home).
    public static let returnCeilingM = 3.0

    /// GLOBAL_POSITION_INT and LOCAL_POSITION_NED report its estimate, GPS_RAW_INT its latest raw fix.
    public internal(set) var estimator = PositionEstimator()

    var parser = MAVLinkStreamParser()
    /// Frames parsed and rejected so far.
    public var counters: MAVLinkStreamParser.Counters { parser.counters }
    var encoder = MAVLinkEncoder(systemId: 1, componentId: 1)
    var setpoint: OffboardSetpoint?
    /// Where hold (after DO_REPOSITION) or return flies to; nil = stay.
    var goal: GoalSteering?
    /// The uploaded flight plan and where it is.
    var mission = SimulatedMission()
    /// The mode PX4 shows again once a failsafe landing has disarmed (measured: the one before the failsafe).
    var modeBeforeFailsafe: PX4Mode?
    var intervalsUs: [UInt32: Int64] = Self.defaultIntervalsUs
    var nextSendUs: [UInt32: Int64] = [:]
    var lastTickUs: Int64
    let startUs: Int64
    var nextTraceUs: Int64
    var armedOnGroundSinceUs: Int64?
    var landedSinceUs: Int64?
    var lastReportedState: String
    var loggedUnsupported: Set<UInt16> = []

    static let defaultIntervalsUs: [UInt32: Int64] = [
        Heartbeat.messageId: 1_000_000, GlobalPositionInt.messageId: 200_000, Attitude.messageId: 200_000,
        GPSRawInt.messageId: 500_000, ExtendedSysState.messageId: 500_000, SysStatus.messageId: 1_000_000,
        BatteryStatus.messageId: 1_000_000, HomePosition.messageId: 2_000_000, MissionCurrent.messageId: 1_000_000,
        LocalPositionNED.messageId: 200_000,
    ]

    public init(configuration: SimulatorConfiguration, gcs: UDPEndpoint?, now: MonotonicInstant,
                autopilot: SimulatedAutopilot = .px4) {
        let nowUs = now.us
        self.configuration = configuration
        self.autopilot = autopilot
        // ArduCopter SITL needs ~40 s for its EKF to use GPS; a few seconds keep the refusal visible, not slow.
        if autopilot == .ardupilot { positionReady = .seconds(4) }
        self.gcs = gcs
        drone = SimulatedDrone(home: configuration.home, headingDeg: configuration.headingDeg,
                               parameters: configuration.parameters, seed: configuration.seed)
        // The ArduCopter face keeps the airframe's ceiling (its takeoff rule is capped there, as documented).
        if autopilot == .px4 { drone.parameters.altitudeMaxM = max(drone.parameters.altitudeMaxM, Self.px4CeilingM) }
        lastTickUs = nowUs
        startUs = nowUs
        nextTraceUs = nowUs
        lastReportedState = drone.flightState.traceName
    }

    func isPositionReady(nowUs: Int64) -> Bool { nowUs - startUs >= positionReady.us }
    var isAirborne: Bool { drone.flightState != .landed && !drone.isEmergency }

    // MARK: - Events

    public mutating func receive(_ bytes: [UInt8], from sender: UDPEndpoint, now: MonotonicInstant)
        -> [SimulatorAction] {
        let nowUs = now.us
        var actions: [SimulatorAction] = []
        if lastSender != sender {
            actions.append(.log("MAVLink client at \(sender)"))
            lastSender = sender
        }
        for event in parser.datagram(bytes) {
            switch event {
            case .error(let error):
                if SimulatorSession.isWorthLogging(parser.counters.errors) {
                    actions.append(.log("MAVLink frame dropped (#\(parser.counters.errors)): \(error)"))
                }
            case .packet(let packet):
                actions += handle(packet, nowUs: nowUs)
            }
        }
        return actions
    }

    /// At the physics rate: advance, apply the mode's control, send due telemetry and trace rows.
    public mutating func tick(now: MonotonicInstant) -> [SimulatorAction] {
        let nowUs = now.us
        var actions: [SimulatorAction] = []
        let wasState = drone.flightState
        drone.advance(by: .microseconds(nowUs - lastTickUs), maxStep: configuration.maxPhysicsStep)
        lastTickUs = max(lastTickUs, nowUs)
        estimator.update(&drone, nowUs: nowUs)
        if autopilot == .ardupilot {
            actions += followArduCopter(from: wasState, nowUs: nowUs)
            actions += controlArduCopter(nowUs: nowUs)
        } else {
            actions += followFlightState(from: wasState, nowUs: nowUs)
            actions += control(nowUs: nowUs)
        }
        let state = drone.isEmergency ? "emergency" : drone.flightState.traceName
        if state != lastReportedState {
            let altitude = SimulatorSession.metres(drone.altitudeM)
            actions.append(.log("\(lastReportedState) → \(state) at \(altitude) m in \(modeName) mode"))
            lastReportedState = state
        }
        actions += telemetry(nowUs: nowUs)
        if nowUs >= nextTraceUs {
            actions.append(.trace(GroundTruthTrace.row(timeS: drone.elapsedS, drone: drone)))
            nextTraceUs = max(nextTraceUs + configuration.traceInterval.us, nowUs)
        }
        return actions
    }

    // MARK: - Messages

    private mutating func handle(_ packet: MAVLinkPacket, nowUs: Int64) -> [SimulatorAction] {
        if autopilot == .ardupilot, let actions = handleArduCopter(packet, nowUs: nowUs) { return actions }
        switch packet.message {
        case .commandLong(let command):
            guard isForUs(command.targetSystem) else { return [] }
            return answer(command.command, execute(command, nowUs: nowUs), to: packet)
        case .commandInt(let command):
            guard isForUs(command.targetSystem) else { return [] }
            return answer(command.command, execute(command, nowUs: nowUs), to: packet)
        case .setPositionTargetLocalNED(let target):
            guard isForUs(target.targetSystem) else { return [] }
            if let setpoint = OffboardSetpoint(target, headingDeg: drone.headingDeg, nowUs: nowUs) {
                self.setpoint = setpoint
            }
            return []
        case .missionCount, .missionItemInt, .missionClearAll, .missionRequestList, .missionRequestInt,
             .missionSetCurrent:
            return handleMission(packet.message, from: packet)
        case .paramRequestRead(let request):
            guard isForUs(request.targetSystem) else { return [] }
            guard let value = parameters.read(request) else {
                return [.log(
                    "PARAM_REQUEST_READ \(request.paramId.isEmpty ? "#\(request.paramIndex)" : request.paramId)"
                             + ": no such parameter (not answered, as PX4)")]
            }
            return send(value)
        case .paramRequestList(let request):
            guard isForUs(request.targetSystem) else { return [] }
            return parameters.all.flatMap { send($0) }
        case .paramSet(let set):
            guard isForUs(set.targetSystem) else { return [] }
            do {
                let value = try parameters.apply(set)
                return send(value) + [.log("parameter \(set.paramId) set to \(parameters[set.paramId] ?? .nan)")]
            } catch {
                return [.log("PARAM_SET \(set.paramId) ignored: \(error)")]
            }
        default:
            return []
        }
    }

    func isForUs(_ targetSystem: UInt8) -> Bool { targetSystem == 0 || targetSystem == encoder.systemId }

    /// COMMAND_ACK, and a log line for what the command did (an unsupported kind once: clients probe a lot).
    mutating func answer(_ command: UInt16, _ outcome: (MAVResult, String?), to packet: MAVLinkPacket)
        -> [SimulatorAction] {
        let (result, note) = outcome
        var actions = send(CommandAck(command: command, result: result, targetSystem: packet.systemId,
                                      targetComponent: packet.componentId))
        let firstOfItsKind = result != .unsupported || loggedUnsupported.insert(command).inserted
        if let note, firstOfItsKind { actions.append(.log("\(Self.name(ofCommand: command)): \(result): \(note)")) }
        actions += pendingReplies
        pendingReplies = []
        return actions
    }

    /// A command as the log says it: its name and number ("takeoff (MAV_CMD 22)").
    static func name(ofCommand command: UInt16) -> String {
        let names: [UInt16: String] = [
            MAVCmd.navWaypoint: "waypoint", MAVCmd.navReturnToLaunch: "return", MAVCmd.navLand: "land",
            MAVCmd.navTakeoff: "takeoff",
            MAVCmd.doSetMode: "set mode", MAVCmd.doReposition: "reposition", MAVCmd.getHomePosition: "get home",
            MAVCmd.componentArmDisarm: "arm/disarm", MAVCmd.setMessageInterval: "set message interval",
            MAVCmd.requestMessage: "request message", MAVCmd.requestAutopilotCapabilities: "request capabilities",
            MAVCmd.missionStart: "mission start",
        ]
        return names[command].map { "\($0) (MAV_CMD \(command))" } ?? "MAV_CMD \(command)"
    }

    /// Messages a command asked for (REQUEST_MESSAGE), sent after its ACK.
    var pendingReplies: [SimulatorAction] = []

    /// One frame to the configured ground station and to the latest sender (once if they are the same).
    mutating func send<M: MAVLinkMessage>(_ message: M) -> [SimulatorAction] {
        let bytes = encoder.encode(message)
        var destinations: [UDPEndpoint] = []
        if let gcs { destinations.append(gcs) }
        if let lastSender, lastSender != gcs { destinations.append(lastSender) }
        return destinations.map { .sendDatagram(bytes, to: $0) }
    }

    /// A STATUSTEXT, as PX4 says it, and the same words in the log. A text longer than one message goes in
    /// 50-byte chunks sharing a non-zero id, as PX4 sends "Arming denied: Resolve system health failures first".
    mutating func say(_ severity: UInt8, _ text: String) -> [SimulatorAction] {
        let bytes = Array(text.utf8)
        guard bytes.count > StatusText.textByteCount else {
            return send(StatusText(severity: severity, text: text)) + [.log("says: \(text)")]
        }
        statusTextId = statusTextId == .max ? 1 : statusTextId + 1
        var actions: [SimulatorAction] = []
        for (index, start) in stride(from: 0, to: bytes.count, by: StatusText.textByteCount).enumerated() {
            let chunk = bytes[start..<min(start + StatusText.textByteCount, bytes.count)]
            var message = StatusText(severity: severity, text: String(decoding: chunk, as: UTF8.self))
            message.id = statusTextId
            message.chunkSeq = UInt8(truncatingIfNeeded: index)
            actions += send(message)
        }
        return actions + [.log("says: \(text)")]
    }

    /// The id of the last chunked STATUSTEXT.
    var statusTextId: UInt16 = 0
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import DroneSimulation
import MAVLink
import Navigation

/// The simulated airframe behind a PX4-like MAVLink face (system 1, component 1), as a pure state machine:
/// datagrams in, datagrams / trace rows / log lines out, time with every event.
///
/// What it does like PX4 SITL: HEARTBEAT at 1 Hz with PX4 `custom_mode`; arm (denied unless landed with battery),
/// disarm (denied in the air unless forced with 21196, which cuts the motors); NAV_TAKEOFF to the takeoff altitude
/// then hold; NAV_LAND, then disarm on touchdown; DO_SET_MODE to OFFBOARD (only armed, in the air and with
/// setpoints streaming), hold, land; body- or local-frame velocity setpoints flown as ground velocities; offboard
/// left for hold when setpoints stop for 0.5 s; SET_MESSAGE_INTERVAL; every COMMAND_LONG answered by COMMAND_ACK.
public struct MAVLinkSimulatorSession: Sendable {
    public let configuration: SimulatorConfiguration
    public private(set) var drone: SimulatedDrone
    public private(set) var isArmed = false
    public private(set) var mode = PX4Mode.hold
    /// Where telemetry goes besides `gcs`: the latest sender.
    public private(set) var lastSender: UDPEndpoint?
    public let gcs: UDPEndpoint?

    /// Setpoints older than this leave offboard (PX4's COM_OF_LOSS_T, here 0.5 s).
    public var offboardLossUs: Int64 = 500_000
    /// Altitude above mean sea level of the home point (GLOBAL_POSITION_INT.alt).
    public var homeAltitudeAMSLM = 34.0
    /// PX4 disarms a vehicle armed on the ground that does not take off (COM_DISARM_PRFLT).
    public var preflightDisarmUs: Int64 = 10_000_000

    private var parser = MAVLinkStreamParser()
    /// Frames parsed and rejected so far.
    public var counters: MAVLinkStreamParser.Counters { parser.counters }
    private var encoder = MAVLinkEncoder(systemId: 1, componentId: 1)
    private var setpoint: OffboardSetpoint?
    private var intervalsUs: [UInt32: Int64] = Self.defaultIntervalsUs
    private var nextSendUs: [UInt32: Int64] = [:]
    private var lastTickUs: Int64
    private var startUs: Int64
    private var nextTraceUs: Int64
    private var armedOnGroundSinceUs: Int64?
    private var lastReportedState: String
    private var loggedUnsupported: Set<UInt16> = []

    static let defaultIntervalsUs: [UInt32: Int64] = [
        Heartbeat.messageId: 1_000_000, GlobalPositionInt.messageId: 200_000, Attitude.messageId: 200_000,
        GPSRawInt.messageId: 500_000, ExtendedSysState.messageId: 500_000, SysStatus.messageId: 1_000_000,
        BatteryStatus.messageId: 1_000_000,
    ]

    public init(configuration: SimulatorConfiguration, gcs: UDPEndpoint?, nowUs: Int64) {
        self.configuration = configuration
        self.gcs = gcs
        drone = SimulatedDrone(home: configuration.home, headingDeg: configuration.headingDeg,
                               parameters: configuration.parameters, seed: configuration.seed)
        lastTickUs = nowUs
        startUs = nowUs
        nextTraceUs = nowUs
        lastReportedState = drone.flightState.traceName
    }

    // MARK: - Events

    public mutating func receive(_ bytes: [UInt8], from sender: UDPEndpoint, nowUs: Int64) -> [SimulatorAction] {
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
    public mutating func tick(nowUs: Int64) -> [SimulatorAction] {
        var actions: [SimulatorAction] = []
        let wasState = drone.flightState
        drone.advance(byUs: nowUs - lastTickUs, maxStepUs: configuration.maxPhysicsStepUs)
        lastTickUs = max(lastTickUs, nowUs)
        actions += followFlightState(from: wasState, nowUs: nowUs)
        actions += control(nowUs: nowUs)
        let state = drone.isEmergency ? "emergency" : drone.flightState.traceName
        if state != lastReportedState {
            let altitude = SimulatorSession.metres(drone.altitudeM)
            actions.append(.log("state \(lastReportedState) → \(state) at \(altitude) m, mode \(mode)"))
            lastReportedState = state
        }
        actions += telemetry(nowUs: nowUs)
        if nowUs >= nextTraceUs {
            actions.append(.trace(GroundTruthTrace.row(timeS: drone.elapsedS, drone: drone)))
            nextTraceUs = max(nextTraceUs + configuration.traceIntervalUs, nowUs)
        }
        return actions
    }

    // MARK: - Commands

    private mutating func handle(_ packet: MAVLinkPacket, nowUs: Int64) -> [SimulatorAction] {
        switch packet.message {
        case .commandLong(let command):
            guard command.targetSystem == 0 || command.targetSystem == encoder.systemId else { return [] }
            let (result, note) = execute(command, nowUs: nowUs)
            let ack = CommandAck(command: command.command, result: result, targetSystem: packet.systemId,
                                 targetComponent: packet.componentId)
            var actions = send(ack)
            // Clients probe for much that is not simulated (MAVSDK asks for a dozen messages): log each kind once.
            let firstOfItsKind = result != .unsupported || loggedUnsupported.insert(command.command).inserted
            if let note, firstOfItsKind { actions.append(.log("MAV_CMD \(command.command): \(result) (\(note))")) }
            return actions
        case .setPositionTargetLocalNED(let target):
            guard target.targetSystem == 0 || target.targetSystem == encoder.systemId else { return [] }
            if let setpoint = OffboardSetpoint(target, headingDeg: drone.headingDeg, nowUs: nowUs) {
                self.setpoint = setpoint
            }
            return []
        default:
            return []
        }
    }

    private var isAirborne: Bool { drone.flightState != .landed && !drone.isEmergency }

    private mutating func execute(_ command: CommandLong, nowUs: Int64) -> (MAVResult, String?) {
        switch command.command {
        case MAVCmd.componentArmDisarm:
            if command.param(1) == 1 {
                guard !isArmed else { return (.accepted, nil) }
                guard drone.flightState == .landed, drone.batteryPct > drone.parameters.criticalBatteryPct else {
                    return (.denied, "not armable: \(drone.flightState.traceName), battery \(Int(drone.batteryPct)) %")
                }
                if drone.isEmergency { toggleEmergency() }
                isArmed = true
                armedOnGroundSinceUs = nowUs
                mode = .hold
                return (.accepted, "armed")
            }
            let forced = command.param(2) == MAVCmd.forceArmDisarmMagic
            guard !isAirborne || forced else { return (.denied, "disarm refused in the air (not forced)") }
            if isAirborne { toggleEmergency() }
            disarm()
            return (.accepted, forced ? "force disarm: motors stopped" : "disarmed")
        case MAVCmd.navTakeoff:
            return takeoff()
        case MAVCmd.navLand:
            guard isArmed, isAirborne else { return (.denied, "land refused: not flying") }
            mode = .land
            drone.applyReference(bits: 0)
            return (.accepted, "landing")
        case MAVCmd.doSetMode:
            return setMode(PX4Mode(main: UInt8(clamping: Int(command.param(2).isFinite ? command.param(2) : 0)),
                                   sub: UInt8(clamping: Int(command.param(3).isFinite ? command.param(3) : 0))),
                           nowUs: nowUs)
        case MAVCmd.setMessageInterval:
            let id = command.param(1)
            let interval = command.param(2)
            guard id.isFinite, id >= 0, id < 16_777_216, interval.isFinite else { return (.denied, "bad parameters") }
            let messageId = UInt32(id)
            guard Self.defaultIntervalsUs[messageId] != nil else { return (.unsupported, "message \(messageId) not simulated") }
            switch interval {
            case -1: intervalsUs[messageId] = nil
            case 0: intervalsUs[messageId] = Self.defaultIntervalsUs[messageId]
            default: intervalsUs[messageId] = max(Int64(interval), 10_000)
            }
            nextSendUs[messageId] = nil
            return (.accepted, nil)
        default:
            return (.unsupported, "not simulated")
        }
    }

    private mutating func setMode(_ requested: PX4Mode, nowUs: Int64) -> (MAVResult, String?) {
        switch requested {
        case .offboard:
            guard isArmed, isAirborne, drone.flightState != .landing else {
                return (.denied, "offboard refused: not armed in the air")
            }
            guard let setpoint, nowUs - setpoint.receivedUs < offboardLossUs else {
                return (.denied, "offboard refused: no setpoints streaming")
            }
            mode = .offboard
            return (.accepted, "offboard")
        case .takeoff:
            return takeoff()
        case .hold, .position:
            mode = requested
            return (.accepted, "\(requested)")
        case .land:
            guard isArmed, isAirborne else { return (.denied, "land refused: not flying") }
            mode = .land
            drone.applyReference(bits: 0)
            return (.accepted, "landing")
        default:
            return (.unsupported, "mode \(requested) not simulated")
        }
    }

    /// NAV_TAKEOFF or a switch to AUTO.TAKEOFF (what MAVSDK sends): climb to the takeoff altitude, then hold.
    private mutating func takeoff() -> (MAVResult, String?) {
        guard isArmed, drone.flightState == .landed else {
            return (.denied, isArmed ? "already in the air" : "takeoff refused: not armed")
        }
        mode = .takeoff
        drone.applyReference(bits: SimulatedDrone.flyBit)
        armedOnGroundSinceUs = nil
        return (.accepted, "taking off to \(drone.parameters.takeoffAltitudeM) m")
    }

    private mutating func toggleEmergency() {
        // REF bit 8's 0→1 edge toggles the airframe's emergency; release it so the next edge is clean.
        drone.applyReference(bits: SimulatedDrone.emergencyBit)
        drone.applyReference(bits: 0)
    }

    private mutating func disarm() {
        isArmed = false
        armedOnGroundSinceUs = nil
        drone.applyReference(bits: 0)
        drone.applyProgressiveCommand(.hover)
        if mode.isOffboard { mode = .hold }
    }

    // MARK: - Autopilot behaviour

    private mutating func followFlightState(from old: FlightState, nowUs: Int64) -> [SimulatorAction] {
        let new = drone.flightState
        if old == .takingOff, new == .hovering, mode == .takeoff {
            mode = .hold
            return [.log("takeoff complete: hold")]
        }
        if old != .landed, new == .landed, isArmed {
            disarm()
            mode = .hold
            return [.log("landed: disarmed")]
        }
        if isArmed, new == .landed, let since = armedOnGroundSinceUs, nowUs - since >= preflightDisarmUs {
            disarm()
            return [.log("disarmed: no takeoff within \(preflightDisarmUs / 1_000_000) s of arming")]
        }
        return []
    }

    /// Offboard: the setpoint as a velocity command, or hold when setpoints stopped. Any other mode: hover.
    private mutating func control(nowUs: Int64) -> [SimulatorAction] {
        guard isArmed, isAirborne else { return [] }
        guard mode.isOffboard else {
            if drone.command != .hover { drone.applyProgressiveCommand(.hover) }
            return []
        }
        guard let setpoint, nowUs - setpoint.receivedUs < offboardLossUs else {
            mode = .hold
            drone.applyProgressiveCommand(.hover)
            return [.log("offboard setpoints stopped for \(offboardLossUs / 1000) ms: leaving offboard, holding position")]
        }
        // A zero-velocity setpoint is position hold (PX4 holds position; the trace says hovering).
        guard setpoint.forwardMps != 0 || setpoint.rightMps != 0 || setpoint.downMps != 0 || setpoint.yawRateRadps != 0
        else {
            drone.applyProgressiveCommand(.hover)
            return []
        }
        let p = drone.parameters
        drone.applyProgressiveCommand(ProgressiveCommand(
            flag: 1, roll: setpoint.rightMps / p.maxSpeedMps, pitch: -setpoint.forwardMps / p.maxSpeedMps,
            gaz: -setpoint.downMps / p.maxClimbRateMps, yaw: setpoint.yawRateRadps * 180 / .pi / p.maxYawRateDegPerS))
        return []
    }

    // MARK: - Telemetry

    private mutating func telemetry(nowUs: Int64) -> [SimulatorAction] {
        var actions: [SimulatorAction] = []
        for (id, interval) in intervalsUs.sorted(by: { $0.key < $1.key }) {
            let due = nextSendUs[id] ?? nowUs
            guard nowUs >= due else { continue }
            nextSendUs[id] = max(due + interval, nowUs)
            actions += message(id, nowUs: nowUs)
        }
        return actions
    }

    private mutating func message(_ id: UInt32, nowUs: Int64) -> [SimulatorAction] {
        let timeBootMs = UInt32(truncatingIfNeeded: (nowUs - startUs) / 1000)
        switch id {
        case Heartbeat.messageId:
            var base = MAVModeFlag.customModeEnabled
            if isArmed { base |= MAVModeFlag.safetyArmed }
            return send(Heartbeat(customMode: mode.customMode, type: MAVType.quadrotor, autopilot: MAVAutopilot.px4,
                                  baseMode: base, systemStatus: isArmed ? MAVState.active : MAVState.standby))
        case GlobalPositionInt.messageId:
            let reading = drone.readSensors()
            let altitudeM = drone.altitudeM
            return send(GlobalPositionInt(
                timeBootMs: timeBootMs, latE7: Self.e7(reading.gps.latitudeDeg), lonE7: Self.e7(reading.gps.longitudeDeg),
                altMm: Int32(((homeAltitudeAMSLM + altitudeM) * 1000).rounded()),
                relativeAltMm: Int32((altitudeM * 1000).rounded()), vxCmps: Self.cm(drone.velocityNorthMps),
                vyCmps: Self.cm(drone.velocityEastMps), vzCmps: Self.cm(-drone.verticalSpeedMps),
                hdgCdeg: UInt16((drone.headingDeg * 100).rounded()) % 36000))
        case Attitude.messageId:
            return send(Attitude(timeBootMs: timeBootMs, rollRad: Float(drone.rollDeg * .pi / 180),
                                 pitchRad: Float(drone.pitchDeg * .pi / 180),
                                 yawRad: Float(Geodesy.wrapDeg180(drone.headingDeg) * .pi / 180),
                                 yawSpeedRadps: Float(drone.yawRateDegPerS * .pi / 180)))
        case GPSRawInt.messageId:
            let position = drone.truePosition
            return send(GPSRawInt(timeUs: UInt64(max(0, nowUs - startUs)), latE7: Self.e7(position.latitudeDeg),
                                  lonE7: Self.e7(position.longitudeDeg),
                                  altMm: Int32(((homeAltitudeAMSLM + drone.altitudeM) * 1000).rounded()),
                                  eph: 80, epv: 120, fixType: 3, satellitesVisible: 12,
                                  hAccMm: UInt32(max(drone.parameters.gpsNoiseM, 0.1) * 1000)))
        case ExtendedSysState.messageId:
            let landed: ExtendedSysState.LandedState =
                switch drone.flightState {
                case .landed: .onGround
                case .takingOff: .takeoff
                case .landing: .landing
                case .hovering, .flying: drone.isEmergency ? .onGround : .inAir
                }
            return send(ExtendedSysState(landedState: landed))
        case SysStatus.messageId:
            let pct = drone.batteryPct
            return send(SysStatus(voltageBatteryMv: UInt16(Self.clamp(10_500 + 2_100 * pct / 100, 0, 65_000)),
                                  batteryRemainingPct: Self.percent(pct)))
        case BatteryStatus.messageId:
            return send(BatteryStatus(batteryRemainingPct: Self.percent(drone.batteryPct)))
        default:
            return []
        }
    }

    /// One frame to the configured ground station and to the latest sender (once if they are the same).
    private mutating func send<M: MAVLinkMessage>(_ message: M) -> [SimulatorAction] {
        let bytes = encoder.encode(message)
        var destinations: [UDPEndpoint] = []
        if let gcs { destinations.append(gcs) }
        if let lastSender, lastSender != gcs { destinations.append(lastSender) }
        return destinations.map { .sendDatagram(bytes, to: $0) }
    }

    static func e7(_ degrees: Double) -> Int32 { Int32(clamp((degrees * 1e7).rounded(), -1.8e9, 1.8e9)) }
    static func cm(_ metresPerSecond: Double) -> Int16 { Int16(clamp((metresPerSecond * 100).rounded(), -32_000, 32_000)) }
    static func percent(_ pct: Double) -> Int8 { Int8(clamp(pct.rounded(.up), 0, 100)) }
    static func clamp(_ value: Double, _ low: Double, _ high: Double) -> Double { value.isNaN ? low : min(high, max(low, value)) }
}

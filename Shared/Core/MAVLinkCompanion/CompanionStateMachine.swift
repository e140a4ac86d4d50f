import Clocks
import Logging
import MAVLink
import Mission
import Navigation
import QuadProtocol

/// mavlink-link's session with one autopilot, as a companion computer. Pure: events in (each with the time of a
/// monotonic clock), actions out; the executable does the UDP and MQTT I/O and calls `tick` at `nextDeadline`.
///
/// Flight commands map onto PX4 offboard control: a takeoff (`fly` with a takeoff id the `TakeoffGate` allows) →
/// arm + NAV_TAKEOFF, then OFFBOARD once the autopilot reports it is in the air (ArduPilot: GUIDED, arm,
/// NAV_TAKEOFF, no setpoint until the climb is done; see `AutopilotFlavor`); PCMD → body-frame velocity + yaw-rate
/// setpoints streamed at 20 Hz, a changed one sent at once (50 Hz on average at most,
/// `CompanionTiming.changedSetpointInterval`); a hover (a command that is not progressive, or older than 250 ms,
/// or one that only climbs) → a position setpoint the autopilot holds (`HoverHold`); `land` → PX4: a descent in
/// OFFBOARD and a disarm on the ground (`OffboardLanding`), else NAV_LAND; emergency → forced disarm.
/// Setpoints never stop while the link runs, so the autopilot never sits in offboard without them.
public struct CompanionStateMachine: Sendable {
    public let timing: CompanionTiming
    public let scale: VelocityScale
    public private(set) var isRunning = false
    /// The autopilot's system and component id, learned from its first HEARTBEAT.
    public private(set) var target: (system: UInt8, component: UInt8)?

    var encoder: MAVLinkEncoder
    /// The held airspace as the autopilot's own fence (`CompanionStateMachine+Fence`).
    var fence: FenceSync
    /// The held plan as the autopilot's own mission, and its current item (`CompanionStateMachine+Mission`).
    var mission: MissionSync
    var missionCurrent = MissionCurrentSync()
    /// A held plan waiting for the vehicle's position before it becomes the autopilot's copy.
    var pendingMissionPlan: MissionPlan?
    /// The item the board's progress says it flies to, and whether its mission runs.
    var missionBoardItem: Int?
    var missionBoardRunning = false
    private var parser = MAVLinkStreamParser()
    private(set) var telemetry = VehicleTelemetry()
    private var commands = CommandSender()
    private var pilot = SetpointPilot()
    private var hover = HoverHold()
    /// PX4: the land command in force flown in OFFBOARD, or handed to NAV_LAND.
    private var landing = OffboardLanding()
    /// The controller's target while it says it has arrived there (its ControllerState), else nil: a hover then
    /// settles on the target, not where the vehicle stopped (`HoverHold.Goal`).
    var arrivedTarget: GeoPoint?
    /// `arrivedTarget` in the autopilot's local frame, once known (`hoverGoal()`).
    var arrivedGoal: HoverHold.Goal?
    /// When the latest LOCAL_POSITION_NED arrived (monotonic): a hover holds a point only on a fresh position.
    private var localPositionAtUs: Int64?
    private var startUs: Int64 = 0
    private var lastSetpointUs: Int64 = .min / 2
    /// The velocity of the last setpoint sent (nil before the first): a different one in force is sent early.
    private var lastSentVelocity: BodyVelocity?
    private var setpointBudget: SetpointBudget
    private var lastHeartbeatSentUs: Int64 = .min / 2
    private var lastHeartbeatReceivedUs: Int64?
    private var wasConnected = false
    private var lastStatusUs: Int64 = 0
    private var lastStatusKey: StatusKey?
    private var lastModeRequestUs: Int64 = .min / 2
    /// Edge memory of the command's REF mode (log lines and the emergency's first request).
    private var handledRefMode: FlightCommand.RefMode?
    /// Which takeoff, if any, the command in force may start: a vehicle on the ground is armed only for it.
    private var takeoffGate = TakeoffGate()
    /// The takeoff id the queued arm / NAV_TAKEOFF are for.
    private var queuedTakeoffId: UInt32?
    private var loggedTakeoffRefusal: String?
    /// Land and emergency are levels, not presses: re-asked while the vehicle does not obey (at most once a second).
    private var lastLandRequestUs: Int64 = .min / 2
    private var lastDisarmRequestUs: Int64 = .min / 2
    /// Whether the autopilot's return-to-launch was asked for because flight commands stopped (once per silence).
    private var orphanReturnAsked = false
    /// ArduPilot: from NAV_TAKEOFF until the climb is done no setpoint goes out (one in GUIDED cancels the takeoff).
    private var arduPilotTakeoffSinceUs: Int64?
    /// The autopilot's answers to the failsafe parameters read at connect.
    private var failsafeParameters = FailsafeParameters()
    private var stateSequence: UInt32 = 0
    private var windowStartUs: Int64 = 0
    private var windowMessages = 0
    private var messagesPerSecond: Float = 0
    private var ignoredForeign = 0
    /// Whether the last datagram held a valid frame from the autopilot: only then is its source where replies go
    /// (a stray sender on the port must not divert the link).
    public private(set) var lastDatagramWasFromAutopilot = false

    private struct StatusKey: Equatable {
        var connected: Bool
        var fallbackHover: Bool
        var reason: LinkStatus.Reason
        /// Every autopilot answer is published at once (the ground waits for a refused takeoff, not for 1 s).
        var answerCount: Int
    }

    /// Ask for these at these periods once the autopilot is known (MAV_CMD_SET_MESSAGE_INTERVAL).
    public static let streamIntervalsUs: [(messageId: UInt32, intervalUs: Float)] = [
        (GlobalPositionInt.messageId, 100_000), (Attitude.messageId, 100_000), (GPSRawInt.messageId, 200_000),
        (ExtendedSysState.messageId, 200_000), (SysStatus.messageId, 1_000_000), (BatteryStatus.messageId, 1_000_000),
        (LocalPositionNED.messageId, 100_000),
        // The autopilot's current mission item: its copy of the plan is kept at the board's (ArduPilot sends
        // nothing unasked on a link).
        (MissionCurrent.messageId, 1_000_000),
    ]

    public init(systemId: UInt8 = 245, componentId: UInt8 = 191, timing: CompanionTiming = CompanionTiming(),
                scale: VelocityScale = VelocityScale()) {
        self.timing = timing
        self.scale = scale
        setpointBudget = SetpointBudget(intervalUs: timing.changedSetpointInterval.us,
            burst: timing.changedSetpointBurst)
        encoder = MAVLinkEncoder(systemId: systemId, componentId: componentId)
        fence = FenceSync(systemId: systemId)
        mission = MissionSync(systemId: systemId)
    }

    /// Where the vehicle is (its fused position with a fix), as a point; nil before.
    var vehiclePoint: GeoPoint? {
        telemetry.positionFix().map { GeoPoint(latitudeDeg: $0.latitudeDeg, longitudeDeg: $0.longitudeDeg) }
    }

    var telemetryFlavor: AutopilotFlavor { telemetry.flavor }
    var autopilotFliesMission: Bool { telemetry.isInMissionMode }

    /// Parser counters (bad CRC, truncated, …) for the status and the shutdown line.
    public var counters: MAVLinkStreamParser.Counters { parser.counters }

    /// When `tick` must be called next; nil when stopped.
    public var nextDeadline: MonotonicInstant? { nextDeadlineUs.map(MonotonicInstant.init(us:)) }

    private var nextDeadlineUs: Int64? {
        guard isRunning else { return nil }
        var deadline = min(lastSetpointUs &+ timing.setpointInterval.us,
                           lastHeartbeatSentUs &+ timing.heartbeatInterval.us, lastStatusUs &+ timing.statusInterval.us)
        if let due = commands.dueUs(retryUs: timing.commandRetry.us) { deadline = min(deadline, max(due, startUs)) }
        if setpointChanged { deadline = min(deadline, setpointBudget.nextAllowedUs) }
        if let timeout = pilot.timeoutDeadlineUs(timeout: timing.commandTimeout) { deadline = min(deadline, timeout) }
        if let orphan = orphanReturnDeadlineUs { deadline = min(deadline, orphan) }
        if let fenceDue = fence.dueUs { deadline = min(deadline, fenceDue) }
        if let missionDue = mission.dueUs { deadline = min(deadline, missionDue) }
        if target != nil, let currentDue = missionCurrent.dueUs { deadline = min(deadline, max(currentDue, startUs)) }
        if wasConnected, let last = lastHeartbeatReceivedUs {
            deadline = min(deadline, last &+ timing.heartbeatLost.us)
        }
        if wasConnected, failsafeParameters.flavor != nil, !failsafeParameters.reported {
            deadline = min(deadline, failsafeParameters.lastRequestUs &+ FailsafeParameters.retryUs)
        }
        return deadline
    }

    public mutating func start(now: MonotonicInstant) -> [CompanionAction] {
        let nowUs = now.us
        guard !isRunning else { return [] }
        isRunning = true
        startUs = nowUs
        windowStartUs = nowUs
        lastStatusUs = nowUs
        return [.log(.info, "waiting for an autopilot HEARTBEAT")] + statusActions(nowUs: nowUs, force: true)
    }

    /// Stops after a last zero-velocity setpoint and a request for hold (position) mode, so the vehicle does not
    /// wait out its offboard-loss timeout; the final (retained) status says disconnected.
    public mutating func stop(now: MonotonicInstant) -> [CompanionAction] {
        let nowUs = now.us
        guard isRunning else { return [] }
        pilot.forceHover()
        var actions = setpointActions(nowUs: nowUs)
        if let target, landingDescends, telemetry.isAirborne, telemetry.isInSetpointMode {
            // A landing in the air goes on without the link: the autopilot's own. Not on the ground: a NAV_LAND to
            // a disarmed PX4 left it in LAND, where it refused to arm (a real-autopilot scenario's next takeoff).
            actions.append(.send(encoder.encode(navLand(target: target))))
            actions.append(.log(.notice, "link stopping during the landing: asked the autopilot to land"))
        } else if let target, telemetry.isAirborne, telemetry.isInSetpointMode {
            actions.append(.send(encoder.encode(setMode(hold: true, target: target))))
            actions.append(.log(.notice, "link stopping: asked the autopilot to hold position"))
        }
        isRunning = false
        wasConnected = false
        lastHeartbeatReceivedUs = nil
        return actions + statusActions(nowUs: nowUs, force: true)
    }

    public mutating func flightCommand(_ command: FlightCommand, now: MonotonicInstant) -> [CompanionAction] {
        let nowUs = now.us
        let resumed = pilot.fallbackHover && pilot.command != nil
        pilot.accept(command, nowUs: nowUs)
        orphanReturnAsked = false
        if command.takeoffId != takeoffGate.currentId, command.takeoffId != queuedTakeoffId {
            // The takeoff a queued arm was for is no longer asked for: it does not go out late.
            commands.remove(kinds: [.arm, .takeoff])
            queuedTakeoffId = nil
        }
        takeoffGate.command(takeoffId: command.takeoffId)
        guard isRunning else { return [] }
        var actions: [CompanionAction] = resumed ? [.log(.info, "flight commands resumed")] : []
        actions += reconcileFlight(nowUs: nowUs)
        // Like drone-link: a command that changes the setpoint reaches the vehicle now, not with the next tick.
        if setpointDue(nowUs: nowUs) { actions += setpointActions(nowUs: nowUs) }
        return actions + pumpCommands(nowUs: nowUs) + statusActions(nowUs: nowUs)
    }

    /// One UDP datagram from the autopilot's address.
    public mutating func datagram(_ bytes: [UInt8], now: MonotonicInstant) -> [CompanionAction] {
        lastDatagramWasFromAutopilot = false
        guard isRunning else { return [] }
        return receiveEvents(parser.datagram(bytes), nowUs: now.us)
    }

    /// Bytes of a byte stream (a serial port): a frame cut by the end of one read continues in the next.
    public mutating func streamBytes(_ bytes: [UInt8], now: MonotonicInstant) -> [CompanionAction] {
        guard isRunning else { return [] }
        return receiveEvents(parser.feed(bytes), nowUs: now.us)
    }

    /// The transport under the link went away (a serial device unplugged): not connected at once, not 3 s later,
    /// and no command waits for an answer that cannot come.
    public mutating func transportLost(now: MonotonicInstant) -> [CompanionAction] {
        guard isRunning else { return [] }
        wasConnected = false
        commands.clear()
        return statusActions(nowUs: now.us)
    }

    private mutating func receiveEvents(_ events: [MAVLinkStreamParser.Event], nowUs: Int64) -> [CompanionAction] {
        var actions: [CompanionAction] = []
        for event in events {
            switch event {
            case .error(.unknownMessage):
                // Autopilots send many messages this code has no use for; they are counted, not logged.
                continue
            case .error(let error):
                actions.append(.log(.debug, "dropped MAVLink frame: \(error)"))
            case .packet(let packet):
                actions += receive(packet, nowUs: nowUs)
            }
        }
        return actions + pumpCommands(nowUs: nowUs) + statusActions(nowUs: nowUs)
    }

    /// Timers: setpoint stream, our heartbeat, command retries, command timeout, heartbeat loss, status.
    public mutating func tick(now: MonotonicInstant) -> [CompanionAction] {
        let nowUs = now.us
        guard isRunning else { return [] }
        var actions: [CompanionAction] = []
        if pilot.checkTimeout(nowUs: nowUs, timeout: timing.commandTimeout) {
            actions.append(.log(.warning,
                                "no flight command for \(timing.commandTimeout.us / 1000) ms: holding position"))
        }
        if wasConnected, let last = lastHeartbeatReceivedUs, nowUs &- last >= timing.heartbeatLost.us {
            wasConnected = false
            commands.clear()
            fence.lost()
            mission.lost()
            actions.append(.log(.warning, "autopilot heartbeat lost: nothing for \((nowUs &- last) / 1000) ms"))
        }
        if nowUs &- lastHeartbeatSentUs >= timing.heartbeatInterval.us {
            lastHeartbeatSentUs = nowUs
            actions.append(.send(encoder.encode(Heartbeat(type: MAVType.onboardController,
                                                          autopilot: MAVAutopilot.invalid,
                                                          systemStatus: MAVState.active))))
        }
        if setpointDue(nowUs: nowUs) { actions += setpointActions(nowUs: nowUs) }
        actions += reconcileFlight(nowUs: nowUs)
        actions += orphanReturnActions(nowUs: nowUs)
        actions += failsafeParameterActions(nowUs: nowUs)
        fence.linkBusy = mission.isTransferring
        actions += fenceActions(fence.tick(nowUs: nowUs))
        mission.linkBusy = fence.isTransferring
        actions += missionActions(mission.tick(nowUs: nowUs))
        actions += resumeWaitingLists(nowUs: nowUs) + missionCurrentActions(nowUs: nowUs)
        return actions + pumpCommands(nowUs: nowUs) + statusActions(nowUs: nowUs)
    }

    // MARK: - Incoming

    private mutating func receive(_ packet: MAVLinkPacket, nowUs: Int64) -> [CompanionAction] {
        var actions: [CompanionAction] = []
        if target == nil, case .heartbeat(let heartbeat) = packet.message,
           heartbeat.autopilot != MAVAutopilot.invalid, heartbeat.type != MAVType.gcs {
            target = (packet.systemId, packet.componentId)
            actions.append(.log(.notice, "autopilot is system \(packet.systemId) component \(packet.componentId) "
                                + "(autopilot type \(heartbeat.autopilot)); asking for telemetry streams"))
            for (id, interval) in Self.streamIntervalsUs {
                commands.enqueue(CommandLong(command: MAVCmd.setMessageInterval, targetSystem: packet.systemId,
                                             targetComponent: packet.componentId, params: [Float(id), interval]),
                                 kind: .setMessageInterval,
                                 label: "stream message \(id) every \(Int(interval / 1000)) ms")
            }
        }
        guard let target, packet.systemId == target.system else {
            ignoredForeign += 1
            return actions
        }
        lastDatagramWasFromAutopilot = true
        windowMessages += 1
        fence.linkBusy = mission.isTransferring
        actions += fenceActions(fence.receive(packet.message, nowUs: nowUs))
        mission.linkBusy = fence.isTransferring
        actions += missionActions(mission.receive(packet.message, nowUs: nowUs))
        actions += resumeWaitingLists(nowUs: nowUs)
        switch packet.message {
        case .heartbeat(let heartbeat):
            // Heartbeats of other components of the same system (a camera, a gimbal) say nothing about the vehicle.
            guard packet.componentId == target.component else { return actions }
            let wasArmed = telemetry.isArmed
            let oldMode = telemetry.heartbeat.map { _ in telemetry.modeName }
            telemetry.heartbeat = heartbeat
            lastHeartbeatReceivedUs = nowUs
            let connectedNow = !wasConnected
            if !wasConnected {
                wasConnected = true
                actions.append(.log(.info,
                    "autopilot heartbeat: armed \(heartbeat.isArmed), mode \(telemetry.modeName)"))
            }
            if heartbeat.isArmed != wasArmed {
                if heartbeat.isArmed { telemetry.emergency = false }
                actions.append(.log(.info, heartbeat.isArmed ? "armed" : "disarmed"))
            }
            if let oldMode, oldMode != telemetry.modeName {
                actions.append(.log(.info, "autopilot mode \(oldMode) → \(telemetry.modeName)"))
            }
            if failsafeParameters.flavor == nil { failsafeParameters.start(flavor: telemetry.flavor) }
            if connectedNow {
                fence.linkBusy = false
                actions += fenceActions(fence.connected(target: target, flavor: telemetry.flavor, nowUs: nowUs))
                mission.linkBusy = fence.isTransferring
                actions += missionActions(mission.connected(target: target, flavor: telemetry.flavor, nowUs: nowUs))
            }
            observeVehicle()
        case .sysStatus(let status): telemetry.sysStatus = status
        case .batteryStatus(let battery): telemetry.battery = battery
        case .attitude(let attitude): telemetry.attitude = attitude
        case .gpsRawInt(let gps): telemetry.gps = gps
        case .extendedSysState(let state):
            telemetry.extendedState = state
            observeVehicle()
        case .paramValue(let value): failsafeParameters.receive(value)
        case .localPositionNED(let local):
            telemetry.localPosition = local
            localPositionAtUs = nowUs
        case .globalPositionInt(let position):
            telemetry.position = position
            if pendingMissionPlan != nil { actions += takePendingMission(nowUs: nowUs) }
            updateArduPilotTakeoff(nowUs: nowUs)
            stateSequence &+= 1
            if let state = telemetry.droneState(navdataSequence: stateSequence, moving: pilot.isMoving(scale: scale),
                                                landing: landingDescends) {
                actions.append(.publishDroneState(state))
            }
            if let fix = telemetry.positionFix() { actions.append(.publishPosition(fix)) }
        case .missionCurrent(let current):
            missionCurrent.reported(current)
        case .commandAck(let ack):
            guard ack.targetSystem == 0 || ack.targetSystem == encoder.systemId else { return actions }
            let label = commands.queue.first?.label
            actions += commands.acknowledge(ack, nowUs: nowUs).map { .log($0.0, $0.1) }
            if label == Self.emergencyLabel, ack.result == MAVResult.accepted.rawValue { telemetry.emergency = true }
            if label == Self.landingDisarmLabel, ack.result == MAVResult.accepted.rawValue {
                landing.disarmWasAccepted()
            }
        default:
            // Commands addressed to a companion, and what the link does not use (home, versions, …): not acted on.
            break
        }
        return actions
    }

    // MARK: - Outgoing

    static let emergencyLabel = "emergency: force disarm"
    static let landingDisarmLabel = "disarm on the ground"

    /// NAV_LAND where the vehicle is, in the autopilot's own numbers.
    func navLand(target: (system: UInt8, component: UInt8)) -> CommandLong {
        CommandLong(command: MAVCmd.navLand, targetSystem: target.system, targetComponent: target.component,
                    params: telemetry.flavor.landParams)
    }

    /// DO_SET_MODE to the setpoint mode, or to position hold, in the autopilot's own numbers.
    func setMode(hold: Bool, target: (system: UInt8, component: UInt8)) -> CommandLong {
        CommandLong(command: MAVCmd.doSetMode, targetSystem: target.system, targetComponent: target.component,
                    params: telemetry.flavor.setModeParams(hold: hold))
    }

    /// Turns the command in force into autopilot commands. Fly: a vehicle on the ground is armed and taken off only
    /// for a takeoff the gate allows (a continuing flight command never arms); in the air outside the setpoint mode
    /// (after the takeoff, after a failsafe let go, after this link restarted) OFFBOARD/GUIDED is asked for. Land and
    /// emergency are levels: asked for again, at most once a second, while the vehicle is armed and does not obey
    /// (one asked before the autopilot reported armed is not used up with nothing sent).
    private mutating func reconcileFlight(nowUs: Int64) -> [CompanionAction] {
        guard let target, wasConnected, let command = pilot.command else { return [] }
        var actions: [CompanionAction] = []
        let newMode = command.refMode != handledRefMode
        handledRefMode = command.refMode
        func cmd(_ number: UInt16, _ params: [Float]) -> CommandLong {
            CommandLong(command: number, targetSystem: target.system, targetComponent: target.component,
                        params: params)
        }
        switch command.refMode {
        case .fly:
            let flavor = telemetry.flavor
            if takeoffGate.allowsTakeoff {
                takeoffGate.tookOff()
                queuedTakeoffId = command.takeoffId
                loggedTakeoffRefusal = nil
                if !telemetry.isArmed {
                    if flavor == .ardupilot {
                        // ArduPilot Copter takes off (and flies setpoints) in GUIDED, which must be set before arming.
                        actions.append(.log(.notice, "takeoff \(command.takeoffId): guided, arm, NAV_TAKEOFF to 2.5 m"))
                        commands.enqueue(setMode(hold: false, target: target), kind: .setMode,
                                         label: flavor.setpointModeName)
                    } else {
                        actions.append(.log(.notice,
                                            """
                                                takeoff \(command.takeoffId): arm, NAV_TAKEOFF, then offboard once in \
                                                the air
                                                """))
                    }
                    commands.enqueue(cmd(MAVCmd.componentArmDisarm, [1]), kind: .arm, label: "arm")
                } else {
                    actions.append(.log(.notice, "takeoff \(command.takeoffId): armed on the ground, NAV_TAKEOFF"))
                }
                commands.enqueue(cmd(MAVCmd.navTakeoff, flavor.takeoffParams), kind: .takeoff, label: "takeoff")
                if flavor == .ardupilot { arduPilotTakeoffSinceUs = nowUs }
            } else if takeoffGate.vehicleOnGround == true, !takeoffGate.holdsTakeoff,
                      let refusal = takeoffGate.refusal, refusal != loggedTakeoffRefusal {
                loggedTakeoffRefusal = refusal
                actions.append(.log(.notice, "vehicle on the ground, flight command says fly: not arming (\(refusal))"))
            } else if telemetry.isArmed, telemetry.landedState == .inAir, !telemetry.isInSetpointMode,
                      !telemetry.isInLandMode, !pilot.fallbackHover, arduPilotTakeoffSinceUs == nil,
                      nowUs &- lastModeRequestUs >= 1_000_000,
                      !commands.queue.contains(where: { $0.label == flavor.setpointModeName }) {
                // Setpoints have been streaming since the link started, as PX4 requires before the switch.
                lastModeRequestUs = nowUs
                commands.enqueue(setMode(hold: false, target: target), kind: .setMode, label: flavor.setpointModeName)
            }
        case .land:
            if newMode {
                // A takeoff not yet sent is void: land wins.
                commands.remove(kinds: [.arm, .takeoff, .setMode])
                arduPilotTakeoffSinceUs = nil
                landing.reset()
            }
            let wasDescending = landing.isDescending
            let step = landing.step(now: MonotonicInstant(us: nowUs), px4: telemetry.flavor == .px4,
                                    armed: telemetry.isArmed, inSetpointMode: telemetry.isInSetpointMode,
                                    airborne: telemetry.isAirborne)
            switch step {
            case .descend:
                if !wasDescending {
                    actions.append(.log(.notice, "land: descending in OFFBOARD over the held point, "
                                        + "then a disarm on the ground"))
                }
                return actions
            case .disarm:
                if !commands.queue.contains(where: { $0.kind == .disarm }) {
                    commands.enqueue(cmd(MAVCmd.componentArmDisarm, [0]), kind: .disarm,
                                     label: Self.landingDisarmLabel, urgent: true)
                }
                return actions
            case .wait:
                return actions
            case .autopilotLand:
                if wasDescending {
                    actions.append(.log(.warning, "land: the descent in OFFBOARD cannot go on (\(telemetry.modeName), "
                                        + "\(Int(OffboardLanding.timeout / .seconds(1))) s at most): the "
                                        + "autopilot's own LAND"))
                }
            }
            if telemetry.isArmed, !telemetry.isInLandMode, nowUs &- lastLandRequestUs >= 1_000_000,
               !commands.queue.contains(where: { $0.kind == .land }) {
                lastLandRequestUs = nowUs
                commands.enqueue(navLand(target: target), kind: .land, label: "land",
                                 urgent: true)
            }
        case .emergencyCutoff:
            if newMode {
                actions.append(.log(.warning, "emergency: forcing disarm (motors stop)"))
                commands.clear()
                arduPilotTakeoffSinceUs = nil
                lastDisarmRequestUs = .min / 2
            }
            if newMode || telemetry.isArmed, nowUs &- lastDisarmRequestUs >= 1_000_000,
               !commands.queue.contains(where: { $0.kind == .forceDisarm }) {
                lastDisarmRequestUs = nowUs
                commands.enqueue(cmd(MAVCmd.componentArmDisarm, [0, MAVCmd.forceArmDisarmMagic]),
                                 kind: .forceDisarm, label: Self.emergencyLabel, urgent: true)
            }
        case .emergencyRecover:
            telemetry.emergency = false
        }
        return actions
    }

    /// When the silence of flight commands hands a flying vehicle to the autopilot's return (nil: not armed for it).
    private var orphanReturnDeadlineUs: Int64? {
        guard timing.orphanReturn > .zero, !orphanReturnAsked, wasConnected, telemetry.isAirborne,
              (pilot.command?.refMode ?? .fly) == .fly else { return nil }
        return (pilot.lastCommandUs ?? startUs) &+ timing.orphanReturn.us
    }

    /// No flight command for `orphanReturn` with the vehicle in the air: the controller is gone (a restart takes
    /// seconds), so the autopilot's own return-to-launch brings the vehicle back rather than a hover that lasts until
    /// its battery failsafe. A controller that comes back takes over again (its commands ask for OFFBOARD/GUIDED).
    /// A last command of land or emergency is a level the link keeps asking for instead.
    /// During a mission whose copy the autopilot holds at the board's current item, the autopilot's own mission flies
    /// on instead (`missionFliesOn`): it finishes the plan the board was flying.
    private mutating func orphanReturnActions(nowUs: Int64) -> [CompanionAction] {
        guard let target, let dueUs = orphanReturnDeadlineUs, nowUs >= dueUs else { return [] }
        orphanReturnAsked = true
        commands.remove(kinds: [.arm, .takeoff, .setMode])
        if let seq = missionFliesOn {
            commands.enqueue(CommandLong(command: MAVCmd.doSetMode, targetSystem: target.system,
                                         targetComponent: target.component,
                                         params: telemetry.flavor.missionModeParams),
                             kind: .setMode, label: Self.orphanMissionLabel, urgent: true)
            return [.log(.warning, "no flight command for \(timing.orphanReturn.us / 1_000_000) s with the vehicle in "
                         + "the air during the mission: the autopilot's own mission flies on from its item \(seq)")]
        }
        commands.enqueue(CommandLong(command: MAVCmd.navReturnToLaunch, targetSystem: target.system,
                                     targetComponent: target.component, params: []),
                         kind: .setMode, label: Self.orphanReturnLabel, urgent: true)
        return [.log(.warning, "no flight command for \(timing.orphanReturn.us / 1_000_000) s with the vehicle in the "
                     + "air: the autopilot's own return-to-launch takes over")]
    }

    static let orphanReturnLabel = "return to launch (no flight commands)"
    static let orphanMissionLabel = "the autopilot's mission (no flight commands)"

    /// The takeoff gate's view of the vehicle, after each HEARTBEAT and EXTENDED_SYS_STATE.
    private mutating func observeVehicle() {
        guard telemetry.heartbeat != nil else { return }
        takeoffGate.observe(onGround: !telemetry.isAirborne)
    }

    /// ArduPilot's takeoff climb is over (setpoints may flow again): near the takeoff altitude, or it never armed,
    /// or it took too long.
    private mutating func updateArduPilotTakeoff(nowUs: Int64) {
        guard let since = arduPilotTakeoffSinceUs else { return }
        let altitudeM = telemetry.position.map { Double($0.relativeAltMm) / 1000 } ?? 0
        let elapsedUs = nowUs &- since
        if altitudeM >= Double(AutopilotFlavor.arduPilotTakeoffAltitudeM) - 0.3
            || (elapsedUs > 5_000_000 && !telemetry.isArmed) || elapsedUs > 20_000_000 {
            arduPilotTakeoffSinceUs = nil
        }
    }

    /// PARAM_REQUEST_READ for the failsafe parameters not yet answered, and the sentence once they are.
    private mutating func failsafeParameterActions(nowUs: Int64) -> [CompanionAction] {
        guard let target, wasConnected else { return [] }
        var actions: [CompanionAction] = []
        for name in failsafeParameters.due(nowUs: nowUs) {
            actions.append(.send(encoder.encode(ParamRequestRead(paramId: name, targetSystem: target.system,
                                                                 targetComponent: target.component))))
        }
        if let (level, text) = failsafeParameters.report(nowUs: nowUs, companionSystemId: encoder.systemId) {
            actions.append(.log(level, text))
        }
        return actions
    }

    private mutating func pumpCommands(nowUs: Int64) -> [CompanionAction] {
        guard wasConnected else { return [] }
        let polled = commands.poll(nowUs: nowUs, retryUs: timing.commandRetry.us, maxAttempts: timing.commandAttempts)
        var actions: [CompanionAction] = polled.logs.map { .log($0.0, $0.1) }
        if let command = polled.send { actions.append(.send(encoder.encode(command))) }
        return actions
    }

    /// A land command flown in OFFBOARD, motors on: setpoints descend, navdata says landing (not the flickers).
    private var landingDescends: Bool {
        pilot.command?.refMode == .land && landing.isDescending && telemetry.isArmed
    }

    /// The velocity in force differs from the last one sent (only with an autopilot to send it to: before that
    /// there is nothing to wait for, and a deadline would spin the loop).
    private var setpointChanged: Bool { target != nil && pilot.velocity(scale: scale) != lastSentVelocity }

    /// The stream's period is up (always, budget or not), or the setpoint changed and the budget allows a send.
    private func setpointDue(nowUs: Int64) -> Bool {
        nowUs &- lastSetpointUs >= timing.setpointInterval.us
            || (setpointChanged && setpointBudget.allows(nowUs: nowUs))
    }

    private mutating func setpointActions(nowUs: Int64) -> [CompanionAction] {
        // Before the autopilot is known there is no one to send to; the stream's clock still advances, so the
        // loop sleeps to the next period instead of spinning on a deadline in the past.
        lastSetpointUs = nowUs
        // ArduCopter drops its GUIDED takeoff for the first velocity setpoint: none until the climb is done.
        guard let target, arduPilotTakeoffSinceUs == nil else { return [] }
        let v = pilot.velocity(scale: scale)
        lastSentVelocity = v
        setpointBudget.spend(nowUs: nowUs)
        let timeBootMs = UInt32(truncatingIfNeeded: max(0, nowUs &- startUs) / 1000)
        let wasHolding = hover.held != nil
        let goal = hoverGoal()
        // A landing in OFFBOARD holds its point down to the ground (PX4's landed state flickers there).
        let descending = landingDescends
        let descendingMps = descending
            ? OffboardLanding.descentMps(altitudeM: telemetry.position.map { Float($0.relativeAltMm) / 1000 } ?? 0)
            : nil
        let setpoint = hover.setpoint(for: v, local: telemetry.localPosition,
                                      localAgeUs: localPositionAtUs.map { nowUs &- $0 },
                                      yawRad: telemetry.attitude?.yawRad,
                                      holding: (telemetry.isAirborne || descending) && telemetry.isInSetpointMode,
                                      goal: goal, now: MonotonicInstant(us: nowUs), descendingMps: descendingMps)
        var actions: [CompanionAction] = []
        if let held = hover.held, !wasHolding {
            actions.append(.log(.debug, "hover: the autopilot holds north \(held.northM) m east \(held.eastM) m "
                                + "down \(held.downM) m"))
        }
        switch setpoint {
        case .velocity(let v):
            actions.append(.send(encoder.encode(SetPositionTargetLocalNED.bodyVelocity(
                timeBootMs: timeBootMs, forwardMps: v.forwardMps, rightMps: v.rightMps, downMps: v.downMps,
                yawRateRadps: v.yawRateRadps, targetSystem: target.system, targetComponent: target.component))))
        case .position(let p):
            actions.append(.send(encoder.encode(SetPositionTargetLocalNED.localPosition(
                timeBootMs: timeBootMs, northM: p.northM, eastM: p.eastM, downM: p.downM, yawRad: p.yawRad,
                targetSystem: target.system, targetComponent: target.component))))
        case .descending(let p, let downMps):
            actions.append(.send(encoder.encode(SetPositionTargetLocalNED.localPositionDescending(
                timeBootMs: timeBootMs, northM: p.northM, eastM: p.eastM, downM: p.downM, downMps: downMps,
                yawRad: p.yawRad, targetSystem: target.system, targetComponent: target.component))))
        case .turning(let p, let yawRateRadps):
            actions.append(.send(encoder.encode(SetPositionTargetLocalNED.localPositionTurning(
                timeBootMs: timeBootMs, northM: p.northM, eastM: p.eastM, downM: p.downM, yawRateRadps: yawRateRadps,
                targetSystem: target.system, targetComponent: target.component))))
        }
        return actions
    }

    private mutating func statusActions(nowUs: Int64, force: Bool = false) -> [CompanionAction] {
        if nowUs &- windowStartUs >= 1_000_000 {
            messagesPerSecond = Float(windowMessages) * 1_000_000 / Float(nowUs &- windowStartUs)
            windowMessages = 0
            windowStartUs = nowUs
        }
        let status = linkStatus(now: MonotonicInstant(us: nowUs))
        let key = StatusKey(connected: status.connected, fallbackHover: status.fallbackHover, reason: status.reason,
                            answerCount: commands.answerCount)
        guard force || key != lastStatusKey || nowUs &- lastStatusUs >= timing.statusInterval.us else { return [] }
        lastStatusKey = key
        lastStatusUs = nowUs
        return [.publishLinkStatus(status)]
    }

    /// The link's health in drone-link's terms: "navdata" is the autopilot's telemetry, its age the heartbeat's.
    public func linkStatus(now: MonotonicInstant) -> LinkStatus {
        let nowUs = now.us
        let connected = isRunning && wasConnected
        let reason: LinkStatus.Reason =
            if !connected { .navdataLost } else if pilot.fallbackHover { .commandTimeout } else { .ok }
        let c = parser.counters
        return LinkStatus(sequence: 0, timestampUs: 0, connected: connected, fallbackHover: pilot.fallbackHover,
                          reason: reason, navdataPerSecond: messagesPerSecond,
                          checksumErrors: UInt32(clamping: c.badCRC),
                          malformedPackets: UInt32(clamping: c.truncated + c.unsupportedFlags),
                          lastNavdataAgeMs: Self.ageMs(since: lastHeartbeatReceivedUs, nowUs: nowUs),
                          lastCommandAgeMs: Self.ageMs(since: pilot.lastCommandUs, nowUs: nowUs),
                          commandAck: commands.lastAnswer.map {
                              LinkStatus.CommandAck(command: $0.kind, result: $0.result,
                                                    ageMs: Self.ageMs(since: $0.atUs, nowUs: nowUs))
                          })
    }

    /// The last final COMMAND_ACK result (nil result = no ACK after every attempt).
    public var lastCommandOutcome: (label: String, result: MAVResult?)? {
        commands.lastOutcome.map { ($0.label, $0.result) }
    }

    static func ageMs(since thenUs: Int64?, nowUs: Int64) -> UInt32 {
        guard let thenUs else { return .max }
        return UInt32(clamping: max(0, nowUs &- thenUs) / 1000)
    }
}

import Clocks
import QuadProtocol

/// The drone-link session: AT commands out, navdata in, link health. Pure: events in (with the time of a
/// monotonic clock), actions out; the executable does the I/O and calls `tick` at `nextDeadline`.
///
/// Differences from objc.io's DroneCommunicator (10 Hz, PCMD only while flying, REF once, no ACK, no checksum):
/// one REF + PCMD datagram every 30 ms whatever the state, new commands sent at once, a hover fallback when
/// commands stop, the navdata trigger repeated, the config handshake followed, navdata checked and ordered.
public struct LinkStateMachine: Sendable {
    public let timing: LinkTiming
    public private(set) var isRunning = false

    private var sequencer = ATSequencer()
    private var configurator: NavdataConfigurator
    private var pilot = LinkPilot()
    private var intake = NavdataIntake()
    /// State word of the last accepted packet; nil before the first.
    private var droneState: DroneStateFlags?
    /// One-shots for the next datagram (the startup CTRL, COMWDG, FTRIM).
    private var oneShots: [ATCommand] = []
    private var lastSendUs: Int64 = 0
    private var lastTriggerUs: Int64 = 0
    private var wasConnected = false
    private var lastStatusUs: Int64 = 0
    private var lastStatusKey: StatusKey?
    private var badNavdataLog = LogThrottle()

    private struct StatusKey: Equatable {
        var connected: Bool
        var fallbackHover: Bool
        var reason: LinkStatus.Reason
    }

    /// `envelope`: limits written into the drone's config at connect, after the navdata configs (nil: none).
    public init(timing: LinkTiming = LinkTiming(), envelope: DroneEnvelope? = nil) {
        self.timing = timing
        configurator = NavdataConfigurator(ackTimeoutUs: timing.configAckTimeout.us, envelope: envelope)
    }

    /// When `tick` must be called next; nil when stopped. Never later than one AT interval after the last send.
    public var nextDeadline: MonotonicInstant? { nextDeadlineUs.map(MonotonicInstant.init(us:)) }

    private var nextDeadlineUs: Int64? {
        guard isRunning else { return nil }
        var deadline = lastSendUs &+ timing.atInterval.us
        deadline = min(deadline, max(intake.lastAcceptedUs ?? .min, lastTriggerUs) &+ timing.navdataRetrigger.us)
        if wasConnected, let last = intake.lastAcceptedUs { deadline = min(deadline, last &+ timing.navdataLost.us) }
        if let timeout = pilot.timeoutDeadlineUs(timeout: timing.commandTimeout) {
            deadline = min(deadline, timeout)
        }
        return min(deadline, lastStatusUs &+ timing.statusInterval.us)
    }

    /// AT numbering from 1, `AT*CTRL=1,5,0` first (clears an ACK bit left by an earlier session), then the
    /// navdata trigger.
    public mutating func start(now: MonotonicInstant) -> [LinkAction] {
        let nowUs = now.us
        guard !isRunning else { return [] }
        isRunning = true
        sequencer.reset()
        intake.startRateWindow(nowUs: nowUs)
        oneShots = [.ctrl(mode: ATControlMode.ack)]
        lastTriggerUs = nowUs
        lastStatusUs = nowUs
        var actions = sendDatagram(nowUs: nowUs)
        actions.append(.sendNavdataTrigger)
        actions += statusActions(nowUs: nowUs)
        return actions
    }

    /// Sends hover (keeping the fly bit) one last time and stops; the drone's own watchdog takes over. The final
    /// (retained) status says disconnected, so nobody trusts a stale "connected".
    public mutating func stop(now: MonotonicInstant) -> [LinkAction] {
        let nowUs = now.us
        guard isRunning else { return [] }
        pilot.forceHover()
        var actions = sendDatagram(nowUs: nowUs)
        isRunning = false
        actions += statusActions(nowUs: nowUs)
        actions.append(.log(.notice, "link stopped after sending hover"))
        return actions
    }

    /// A new flight command goes out at once and restarts the 30 ms cadence.
    public mutating func flightCommand(_ command: FlightCommand, now: MonotonicInstant) -> [LinkAction] {
        let nowUs = now.us
        let resumed = pilot.fallbackHover
        let significant = pilot.isSignificantChange(to: command, thresholdFrac: timing.immediateSendThresholdFrac)
        let wantsTrim = pilot.accept(command, nowUs: nowUs)
        guard isRunning else { return [] }
        var actions: [LinkAction] = []
        if resumed { actions.append(.log(.info, "flight commands resumed")) }
        if wantsTrim { actions += requestFlatTrim() }
        // A new command goes out at once and restarts the cadence; a small correction rides the next tick.
        if significant || wantsTrim { actions += sendDatagram(nowUs: nowUs) }
        actions += statusActions(nowUs: nowUs)
        return actions
    }

    /// One navdata datagram from the drone.
    public mutating func navdataDatagram(_ bytes: [UInt8], now: MonotonicInstant) -> [LinkAction] {
        let nowUs = now.us
        guard isRunning else { return [] }
        switch intake.receive(bytes, nowUs: nowUs) {
        case .rejected(let error):
            let text = "dropped navdata datagram (\(bytes.count) bytes): \(error); "
                + "checksum errors \(intake.checksumErrors), malformed \(intake.malformedPackets)"
            let line = badNavdataLog.line(text, nowUs: nowUs, intervalUs: timing.errorLogInterval.us)
            return line.map { [.log(.warning, $0)] } ?? []
        case .stale(let sequence, let last):
            return [.log(.debug, "dropped navdata sequence \(sequence) (last accepted \(last))")]
        case .accepted(let packet):
            return accept(packet, nowUs: nowUs)
        }
    }

    /// Timers: navdata re-trigger and loss, command timeout, the 30 ms datagram, the periodic status.
    public mutating func tick(now: MonotonicInstant) -> [LinkAction] {
        let nowUs = now.us
        guard isRunning else { return [] }
        var actions: [LinkAction] = []
        if nowUs &- max(intake.lastAcceptedUs ?? .min, lastTriggerUs) >= timing.navdataRetrigger.us {
            lastTriggerUs = nowUs
            intake.resetSequence()
            actions.append(.sendNavdataTrigger)
        }
        if wasConnected, !isConnected(nowUs: nowUs) {
            wasConnected = false
            configurator.reset()
            let ageMs = LinkHealth.ageMs(since: intake.lastAcceptedUs, nowUs: nowUs)
            actions.append(.log(.warning, "navdata lost: nothing for \(ageMs) ms; re-sending the trigger"))
        }
        var sendNow = nowUs &- lastSendUs >= timing.atInterval.us
        if pilot.checkTimeout(nowUs: nowUs, timeout: timing.commandTimeout) {
            let timeoutMs = timing.commandTimeout.us / 1000
            actions.append(.log(.warning, "no flight command for \(timeoutMs) ms: hovering (fly bit kept)"))
            sendNow = true
        }
        if sendNow { actions += sendDatagram(nowUs: nowUs) }
        actions += statusActions(nowUs: nowUs)
        return actions
    }

    // MARK: - Internals

    private func isConnected(nowUs: Int64) -> Bool {
        guard isRunning, let last = intake.lastAcceptedUs else { return false }
        return nowUs &- last < timing.navdataLost.us
    }

    private mutating func accept(_ packet: NavdataPacket, nowUs: Int64) -> [LinkAction] {
        var actions: [LinkAction] = []
        if !wasConnected {
            wasConnected = true
            let stateHex = String(packet.state.rawValue, radix: 16)
            actions.append(.log(.info, "navdata flowing (sequence \(packet.sequence), state 0x\(stateHex))"))
        }
        droneState = packet.state
        pilot.observe(packet.state)
        if packet.state.contains(.comWatchdog) {
            // SDK: on bit 30 reset the expected sequence and send COMWDG.
            intake.resetSequence()
            if !oneShots.contains(.comwdg) { oneShots.append(.comwdg) }
        }
        actions += configurator.observe(packet.state, nowUs: nowUs)
        if packet.demo != nil { actions.append(.publishDroneState(packet)) }
        if packet.gps?.hasFix == true { actions.append(.publishPosition(packet)) }
        actions += statusActions(nowUs: nowUs)
        return actions
    }

    private mutating func requestFlatTrim() -> [LinkAction] {
        guard let droneState else { return [.log(.notice, "flat trim refused: drone state unknown (no navdata yet)")] }
        guard !droneState.contains(.flying) else { return [.log(.notice, "flat trim refused: the drone is flying")] }
        if !oneShots.contains(.ftrim) { oneShots.append(.ftrim) }
        return [.log(.info, "flat trim requested")]
    }

    /// One datagram: pending one-shots, the handshake's CONFIG or CTRL, then REF and PCMD.
    private mutating func sendDatagram(nowUs: Int64) -> [LinkAction] {
        let handshake = configurator.commandsForDatagram(nowUs: nowUs)
        var commands = oneShots + handshake.commands
        oneShots = []
        if let ref = pilot.nextRef(drone: droneState) { commands.append(.ref(ref)) }
        commands.append(pilot.pcmd)
        lastSendUs = nowUs
        var actions = handshake.logs
        if let refusal = pilot.newTakeoffRefusal() {
            actions.append(.log(.notice, "drone on the ground, flight command says fly: not taking off (\(refusal))"))
        }
        do {
            actions += try sequencer.pack(commands).map { .sendAT($0) }
        } catch {
            actions.append(.log(.error, "cannot encode AT commands: \(error)"))
        }
        return actions
    }

    private mutating func statusActions(nowUs: Int64) -> [LinkAction] {
        intake.updateRate(nowUs: nowUs)
        let health = health(now: MonotonicInstant(us: nowUs))
        let key = StatusKey(connected: health.connected, fallbackHover: health.fallbackHover, reason: health.reason)
        guard key != lastStatusKey || nowUs &- lastStatusUs >= timing.statusInterval.us else { return [] }
        lastStatusKey = key
        lastStatusUs = nowUs
        return [.publishLinkStatus(health)]
    }

    /// The link's health now. Reason order: no navdata, then configuring, then command timeout.
    public func health(now: MonotonicInstant) -> LinkHealth {
        let nowUs = now.us
        let connected = isConnected(nowUs: nowUs)
        let reason: LinkStatus.Reason =
            if !connected { .navdataLost }
            else if configurator.isConfiguring { .configuring }
            else if pilot.fallbackHover { .commandTimeout }
            else { .ok }
        return LinkHealth(
            connected: connected, fallbackHover: pilot.fallbackHover, reason: reason,
            navdataPerSecond: intake.packetsPerSecond, checksumErrors: intake.checksumErrors,
            malformedPackets: intake.malformedPackets, stalePackets: intake.stalePackets,
            lastNavdataAgeMs: LinkHealth.ageMs(since: intake.lastAcceptedUs, nowUs: nowUs),
            lastCommandAgeMs: LinkHealth.ageMs(since: pilot.lastCommandUs, nowUs: nowUs))
    }
}

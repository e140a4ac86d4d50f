import Clocks
import QuadProtocol

/// Turns the latest flight command and the drone's reported state into the REF and PCMD of each datagram.
///
/// Safety rules: a dead controller never lands the drone or cuts its motors (the fly bit is kept, PCMD falls back
/// to hover); a landed drone takes off only for a takeoff the controller asked for after the link saw it landed;
/// REF bit 8 is only asserted while it moves the drone the requested way (it toggles emergency).
struct LinkPilot: Sendable, Equatable {
    private(set) var command: FlightCommand?
    private var freshness = CommandFreshness()
    /// Which takeoff, if any, the command in force may start (a drone on the ground is never taken up otherwise).
    private(set) var takeoff = TakeoffGate()
    private var loggedRefusal: String?
    var lastCommandUs: Int64? { freshness.lastCommand?.us }
    /// True from the command timeout until the next command.
    var fallbackHover: Bool { freshness.isStale }

    /// Records a command. Returns whether it asks for a flat trim now (rising edge of `flatTrim`).
    mutating func accept(_ newCommand: FlightCommand, nowUs: Int64) -> Bool {
        let wantsTrim = newCommand.flatTrim && !(command?.flatTrim ?? false)
        command = newCommand
        freshness.received(now: MonotonicInstant(us: nowUs))
        takeoff.command(takeoffId: newCommand.takeoffId)
        return wantsTrim
    }

    /// Whether `newCommand` differs from the one in force enough to go out at once rather than with the next 30 ms
    /// tick: a new mode (REF, hover/progressive, flat trim) or a value moved by at least `thresholdFrac`. The
    /// controller sends small corrections many times a second; sending each at once would break the 30 ms cadence
    /// without making anything faster that matters.
    func isSignificantChange(to newCommand: FlightCommand, thresholdFrac: Float) -> Bool {
        guard let command, !fallbackHover else { return true }
        if command.refMode != newCommand.refMode || command.progressive != newCommand.progressive
            || (newCommand.flatTrim && !command.flatTrim) { return true }
        guard newCommand.progressive else { return false }
        let old = [command.rollFrac, command.pitchFrac, command.gazFrac, command.yawFrac]
        let new = [newCommand.rollFrac, newCommand.pitchFrac, newCommand.gazFrac, newCommand.yawFrac]
        return zip(old, new).contains { !(abs($0 - $1) < thresholdFrac) }
    }

    /// When the command in force goes stale; nil when there is none or hover already took over.
    func timeoutDeadlineUs(timeout: Duration) -> Int64? { freshness.deadline(timeout: timeout)?.us }

    /// Switches to hover once the command is older than `timeout`. Returns true when that just happened.
    mutating func checkTimeout(nowUs: Int64, timeout: Duration) -> Bool {
        freshness.checkTimeout(now: MonotonicInstant(us: nowUs), timeout: timeout)
    }

    /// The REF value, or nil while it is unknown whether the drone should fly: before the first command and the
    /// first navdata, so that restarting the link in flight does not land the drone. A drone on the ground gets the
    /// takeoff bit only for a takeoff the gate allows (`TakeoffGate`): a continuing `fly` keeps a flying drone in
    /// the air but never takes a landed one up. Mutating: starting a takeoff spends its id.
    mutating func nextRef(drone state: DroneStateFlags?) -> Int32? {
        let inEmergency = state?.contains(.emergency)
        guard let command else {
            guard let state else { return nil }
            return ATRef.value(takeoff: state.contains(.flying), emergency: false)
        }
        switch command.refMode {
        case .land:
            return ATRef.value(takeoff: false, emergency: false)
        case .fly:
            guard let state else { return nil }
            if state.contains(.flying) { return ATRef.value(takeoff: true, emergency: false) }
            if takeoff.allowsTakeoff { takeoff.tookOff() }
            return ATRef.value(takeoff: takeoff.holdsTakeoff, emergency: false)
        case .emergencyCutoff:
            // Once the drone reports emergency, holding bit 8 further would toggle it back.
            return ATRef.value(takeoff: false, emergency: inEmergency != true)
        case .emergencyRecover:
            return ATRef.value(takeoff: false, emergency: inEmergency == true)
        }
    }

    /// Why a `fly` command does not take the landed drone up, once per reason (nil otherwise or already said).
    mutating func newTakeoffRefusal() -> String? {
        let refusal = command?.refMode == .fly && takeoff.vehicleOnGround == true && !takeoff.holdsTakeoff
            ? takeoff.refusal : nil
        defer { loggedRefusal = refusal }
        return refusal == loggedRefusal ? nil : refusal
    }

    /// Navdata's state word, in order with the commands: the takeoff gate's view of the drone.
    mutating func observe(_ state: DroneStateFlags) {
        takeoff.observe(onGround: !state.contains(.flying))
    }

    /// PCMD: the command's values when progressive and fresh, otherwise flag 0 (hover).
    var pcmd: ATCommand {
        guard let command, command.progressive, !fallbackHover else { return .hover }
        let values = [command.rollFrac, command.pitchFrac, command.gazFrac, command.yawFrac]
        guard values.allSatisfy(\.isFinite) else { return .hover }
        let clamped = values.map { min(1, max(-1, $0)) }
        return .pcmd(flag: PCMDFlag.progressive, roll: clamped[0], pitch: clamped[1], gaz: clamped[2], yaw: clamped[3])
    }
}

extension LinkPilot {
    /// Hover from now on until the next command (shutdown).
    mutating func forceHover() {
        freshness.expire()
    }
}

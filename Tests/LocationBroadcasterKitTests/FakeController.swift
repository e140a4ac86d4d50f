import InMemoryMQTT
import QuadMQTT
import QuadProtocol
import Synchronization

/// Plays drone-controller on an `InMemoryBroker` the way FlightControl's state machine answers on the bus: a
/// retained presence, a retained ControllerState carrying its run id, a new state (new sequence) for every
/// command, target or claim it accepts or refuses, with the real reasons (`not-pilot`, `command-for-previous-run`,
/// `control-granted`, `control-released`, …). What a test scripts is only whether it accepts.
final class FakeController: Sendable {
    enum Answer: Sendable, Equatable {
        case accept
        case refuse(reason: Reason)
        /// Publishes nothing (a controller that hangs, or a bridge that lost the message).
        case ignore
    }

    private struct State {
        var sequence: UInt32 = 0
        var activity: ControllerState.Activity
        var reason = Reason.unspecified
        var pilot: String
        var target: (Double, Double)?
        var commandAnswer = Answer.accept
        var targetAnswer = Answer.accept
        var arrivesAtTargets = false
        /// Broadcasters whose presence went offline (the real controller frees control from a lost pilot).
        var offlineBroadcasters: Set<String> = []
    }

    let drone: DroneID
    let runId: UInt32
    let connection: InMemoryConnection
    private let state: Mutex<State>

    init(broker: InMemoryBroker, drone: String = "drone1", runId: UInt32 = 7,
         activity: ControllerState.Activity = .landed, pilot: String = "") {
        self.drone = DroneID(rawValue: drone)!
        self.runId = runId
        connection = broker.connect(clientId: "drone-controller-\(drone)")
        state = Mutex(State(activity: activity, pilot: pilot))
    }

    /// Announces itself and its state (both retained), then answers.
    func start(announce: Bool = true) throws {
        try connection.start()
        if announce { try announcePresence(online: true) }
        try connection.subscribe(Topics.command.topic(for: drone)) { [self] message in
            guard let command = try? Command(decoding: message.payload) else { return }
            handle(command)
        }
        try connection.subscribe(Topics.target.topic(for: drone)) { [self] message in
            guard let target = try? Target(decoding: message.payload) else { return }
            handle(target)
        }
        try connection.subscribe(Topics.controlClaim.topic(for: drone)) { [self] message in
            guard let claim = try? ControlClaim(decoding: message.payload) else { return }
            handle(claim)
        }
        try connection.subscribe("quad/\(drone.rawValue)/status/location-broadcaster/+") { [self] message in
            guard let status = try? ServiceStatus(json: message.payload),
                  let name = message.topic.split(separator: "/").last.map(String.init) else { return }
            state.withLock {
                if status.state == .offline { $0.offlineBroadcasters.insert(name) } else {
                    $0.offlineBroadcasters.remove(name)
                }
            }
        }
        publishState()
    }

    func announcePresence(online: Bool) throws {
        let status = ServiceStatus(state: online ? .online : .offline, service: "drone-controller", version: "0.1.0",
                                   startedAt: 1, pid: 1)
        try connection.publish(topic: Topics.status(service: "drone-controller", drone: drone),
                               payload: status.encodedJSON(), qos: 1, retain: true)
    }

    func answerCommands(_ answer: Answer) { state.withLock { $0.commandAnswer = answer } }
    func answerTargets(_ answer: Answer) { state.withLock { $0.targetAnswer = answer } }
    /// Every accepted target: `flying-to-target`, then `arrived` with the target's coordinates.
    func arriveAtTargets() { state.withLock { $0.arrivesAtTargets = true } }

    var pilot: String { state.withLock { $0.pilot } }

    private func handle(_ command: Command) {
        let publish = state.withLock { s -> Bool in
            if let refusal = Self.addressRefusal(command.controllerRunId, runId, refusal: .commandForPreviousRun) {
                s.reason = refusal
                return true
            }
            if command.kind != .emergency, !s.pilot.isEmpty, s.pilot != command.senderId {
                s.reason = .notPilot
                return true
            }
            switch s.commandAnswer {
            case .ignore: return false
            case .refuse(let reason): s.reason = reason
            case .accept: (s.activity, s.reason) = Self.result(of: command.kind, from: s.activity)
            }
            return true
        }
        if publish { publishState() }
    }

    private func handle(_ target: Target) {
        let (publish, arrive) = state.withLock { s -> (Bool, Bool) in
            if let refusal = Self.addressRefusal(target.controllerRunId, runId, refusal: .targetForPreviousRun) {
                s.reason = refusal
                return (true, false)
            }
            if !s.pilot.isEmpty, s.pilot != target.senderId {
                s.reason = .notPilot
                return (true, false)
            }
            switch s.targetAnswer {
            case .ignore: return (false, false)
            case .refuse(let reason): s.reason = reason
            case .accept:
                s.target = (target.latitudeDeg, target.longitudeDeg)
                (s.activity, s.reason) = (.flyingToTarget, .newTarget)
            }
            return (true, s.targetAnswer == .accept && s.arrivesAtTargets)
        }
        if publish { publishState() }
        if arrive {
            state.withLock { ($0.activity, $0.reason) = (.arrived, .arrived) }
            publishState()
        }
    }

    private func handle(_ claim: ControlClaim) {
        state.withLock { s in
            if let refusal = Self.addressRefusal(claim.controllerRunId, runId, refusal: .claimForPreviousRun) {
                s.reason = refusal
                return
            }
            switch claim.action {
            case .claim:
                if s.pilot.isEmpty || s.pilot == claim.senderId || s.offlineBroadcasters.contains(s.pilot) {
                    (s.pilot, s.reason) = (claim.senderId, .controlGranted)
                } else {
                    s.reason = .claimRefused
                }
            case .release:
                if s.pilot == claim.senderId { (s.pilot, s.reason) = ("", .controlReleased) } else {
                    s.reason = .notPilot
                }
            }
        }
        publishState()
    }

    /// `<what>-for-previous-run` when addressed to another run (RunAddress.none = unaddressed, accepted).
    private static func addressRefusal(_ addressed: UInt32, _ runId: UInt32, refusal: Reason) -> Reason? {
        addressed == RunAddress.none || addressed == runId ? nil : refusal
    }

    /// Where an accepted command ends (the real controller passes through taking-off, landing, … first).
    private static func result(of kind: Command.Kind, from activity: ControllerState.Activity)
        -> (ControllerState.Activity, Reason) {
        switch kind {
        case .takeoff: (.hovering, .takeoff)
        case .land: (.landed, .land)
        case .hover: (.hovering, .hover)
        case .emergency: (.emergency, .emergency)
        case .reset: (.landed, .reset)
        case .flatTrim: (activity, .flatTrim)
        case .returnHome: (.returningHome, .returnHome)
        }
    }

    /// Moves to `activity` with `reason`, as the real controller does on its own (navdata, failsafes).
    func set(_ activity: ControllerState.Activity, reason: Reason) {
        state.withLock { ($0.activity, $0.reason) = (activity, reason) }
    }

    /// `repeating`: the same state again, same sequence, as the controller repeats it (every second in flight).
    func publishState(repeating: Bool = false) {
        let payload = state.withLock { s -> [UInt8]? in
            if !repeating { s.sequence += 1 }
            let controller = ControllerState(sequence: s.sequence, timestampUs: 0, activity: s.activity,
                reason: s.reason,
                                             pilotId: s.pilot, targetLatitudeDeg: s.target?.0,
                                             targetLongitudeDeg: s.target?.1, runId: runId)
            return try? controller.encoded()
        }
        guard let payload else { return }
        _ = try? connection.publish(topic: Topics.controllerState.topic(for: drone), payload: payload, qos: 1,
                                    retain: true)
    }
}

import QuadProtocol

/// Whether drone-controller took what the broadcaster just published (a command, a target, a release), judged
/// from the ControllerStates it publishes afterwards. A command exits 0 only on `.accepted`.
///
/// Only a state newer than the one seen before publishing counts: the controller re-publishes its state on every
/// refusal with a new sequence, and a retained state is old news.
public struct ControllerReply: Sendable {
    public enum Request: Sendable, Equatable {
        case command(Command.Kind)
        case target(latitudeDeg: Double, longitudeDeg: Double)
        case release(senderId: String)
    }

    public enum Verdict: Sendable, Equatable {
        case pending
        case accepted
        /// Refused, or failed after being accepted (`takeoff-timeout`): the controller's reason.
        case refused(reason: Reason)
    }

    public let request: Request
    /// The controller's state before publishing; nil when none was known.
    public let before: ControllerState?
    /// The controller run what we published was addressed to (RunAddress.none: unaddressed).
    public let addressedRunId: UInt32

    public init(request: Request, before: ControllerState?, addressedRunId: UInt32 = RunAddress.none) {
        self.request = request
        self.before = before
        self.addressedRunId = addressedRunId
    }

    /// The run to send again to, when the controller refused what we sent as addressed to another run: it
    /// restarted after we read its state (its answer names the new run). nil for any other state, and when the
    /// answer names the run we addressed (then the refusal stands).
    public func restartedRun(in state: ControllerState) -> UInt32? {
        guard state.reason.isForPreviousRun, state.runId != RunAddress.none,
              state.runId != addressedRunId else { return nil }
        return state.runId
    }

    public func isNewer(_ state: ControllerState, retained: Bool) -> Bool {
        guard let before else { return !retained }
        return Self.isNewer(state, than: before)
    }

    /// Whether `state` is news after `earlier`: not a repeat of it (the controller repeats its retained state
    /// with the same sequence, every second while a flight is under way: `land` printed `landing (land)` once a
    /// second) and not older.
    public static func isNewer(_ state: ControllerState, than earlier: ControllerState) -> Bool {
        // Another run counts its sequence from 1 again: anything it says is news (it restarted meanwhile).
        if state.runId != earlier.runId { return true }
        // Serial-number order, so a wrapped sequence still counts as newer.
        return Int32(bitPattern: state.sequence &- earlier.sequence) > 0
    }

    /// The verdict on one state received after publishing.
    public func judge(_ state: ControllerState, retained: Bool) -> Verdict {
        guard isNewer(state, retained: retained) else { return .pending }
        let reason = state.reason
        // Refused, or taken and then given up (`takeoff-timeout`, `target-expired`): the reason says which request.
        if reason.isRefusal || reason.isFailure, reason.answers(request.answeredBy) { return .refused(reason: reason) }
        switch request {
        case .command(let kind):
            if kind == .flatTrim { return reason == .flatTrim ? .accepted : .pending }
            if Self.goal(kind).contains(state.activity) { return .accepted }
            if state.activity == .emergency, kind != .reset {
                return .refused(reason: reason == .unspecified ? .emergency : reason)
            }
            return .pending
        case .target(let lat, let lon):
            return Self.hasTarget(state, lat, lon) ? .accepted : .pending
        case .release(let senderId):
            return state.pilotId != senderId && (reason == .controlReleased || before?.pilotId == senderId)
                ? .accepted : .pending
        }
    }

    /// Whether accepting would change nothing the controller publishes (it re-publishes only on a change or a
    /// refusal): then a quiet grace period after publishing means accepted. A command whose goal the controller
    /// is already in (`hover` while hovering) is one: it must still wait for a refusal, since the controller
    /// refuses a sender that is not the pilot whatever it is doing (`hover` exited 0 on `not-pilot`).
    public var acceptanceIsSilent: Bool {
        guard let before else { return false }
        switch request {
        case .target(let lat, let lon): return Self.hasTarget(before, lat, lon)
        case .command(.flatTrim): return before.activity == .landed && before.reason == .flatTrim
        case .command(let kind): return Self.goal(kind).contains(before.activity)
        case .release: return false
        }
    }

    /// A target request (the controller answers every command, but not a target it already has).
    public var isTarget: Bool {
        if case .target = request { return true }
        return false
    }

    /// The activities that mean a command was done.
    public static func goal(_ kind: Command.Kind) -> Set<ControllerState.Activity> {
        switch kind {
        case .takeoff: [.hovering, .flyingToTarget, .arrived]
        case .land: [.landed]
        case .hover: [.hovering]
        case .emergency: [.emergency]
        case .reset: [.landed]
        case .flatTrim: []  // judged by its reason: a landed drone stays landed
        case .returnHome: [.returningHome]
        }
    }

    static func hasTarget(_ state: ControllerState, _ lat: Double, _ lon: Double) -> Bool {
        guard let tLat = state.targetLatitudeDeg, let tLon = state.targetLongitudeDeg else { return false }
        // The controller echoes the f64 it received; allow only rounding noise.
        return abs(tLat - lat) <= 1e-9 && abs(tLon - lon) <= 1e-9
    }
}

/// Whether a drone-controller serves the drone, from the retained `quad/+/status/drone-controller` presences.
public enum ControllerAvailability {
    /// nil when one does (or a controller state is known though it never announced itself); else a sentence with
    /// the drones that have one, e.g. `no drone-controller online for drone 'drone9' (seen: drone1)`.
    public static func problem(drone: String, online: Bool?, hasControllerState: Bool,
                               dronesWithController: [String]) -> String? {
        if online == true || (online == nil && hasControllerState) { return nil }
        let others = dronesWithController.filter { $0 != drone }.sorted()
        let seen = others.isEmpty ? "no drone-controller online on this broker"
            : "seen: " + others.prefix(10).map { TextFormat.printable($0, width: 32) }.joined(separator: ", ")
        let name = TextFormat.printable(drone, width: 32)
        return online == false ? "drone-controller for drone '\(name)' is offline (\(seen))"
            : "no drone-controller online for drone '\(name)' (\(seen))"
    }
}

extension ControllerReply.Request {
    /// The request as the controller's reasons name what they answer (a release is answered as a claim).
    public var answeredBy: Reason.Request {
        switch self {
        case .command(let kind): .command(kind)
        case .target: .target
        case .release: .claim
        }
    }
}

import Clocks
import QuadProtocol

/// The broadcaster's side of pilot arbitration (`--claim`). The controller decides: the earliest claim wins, and
/// control passes on release or when the pilot's presence goes offline. This side only decides when to send a
/// claim, learns from `ControllerState.pilotId` whether it holds control, claims again when control becomes free
/// (the pilot released or went offline), and releases on shutdown.
///
/// Every claim and release is addressed to the controller run named in the last ControllerState seen (format 1.2),
/// so one queued in a bridge while the controller restarted is refused by the new run; nothing is claimed before
/// a state was seen (the retained one arrives right after subscribing).
///
/// Every claim of one session carries the timestamp of the first one: "earliest wins" then means "has been asking
/// longest", and a re-sent claim (after a reconnect or a lost message) neither gains nor loses priority. That
/// timestamp is a wall stamp (`connected(wallClock:)`); retries are timed on the monotonic `now`.
public struct PilotClaimer: Sendable {
    public struct Configuration: Sendable, Equatable {
        public var senderId: String
        /// While control is free and not ours, the claim is repeated this often (claims are QoS 1, not retained:
        /// a controller that restarted has forgotten them).
        public var retryInterval: Duration

        public init(senderId: String, retryInterval: Duration = .seconds(2)) {
            self.senderId = senderId
            self.retryInterval = max(.microseconds(1), retryInterval)
        }
    }

    public enum Action: Sendable, Equatable {
        case sendClaim(ControlClaim)
        case sendRelease(ControlClaim)
        case gainedControl
        /// We held control and now `pilotId` (empty: nobody) does.
        case lostControl(to: String)
        /// Someone else, still online, holds control; we wait for it to become free.
        case waitingForPilot(String)
        /// No ControllerState seen a retry interval after connecting: the claim goes out once one arrives.
        case waitingForController
    }

    public enum Control: Sendable, Equatable {
        case idle
        /// Claimed but the controller has not named us.
        case pending
        case holding
        case released
    }

    public let configuration: Configuration
    public private(set) var control: Control = .idle
    private var claimTimestampUs: Int64?
    private var sequence: UInt32 = 0
    private var lastClaimSentUs: Int64?
    /// The pilot the controller last named (empty = nobody).
    private var currentPilot = ""
    private var offlinePilots: Set<String> = []
    /// The run of the last ControllerState seen (RunAddress.none from a controller without one); nil = none seen.
    private var controllerRunId: UInt32?
    private var reportedWaitingForController = false
    private var connectedAtUs: Int64 = 0
    /// Connected before any state was seen: the claim of the connect goes out with the first state.
    private var claimOnNextState = false

    public init(configuration: Configuration) {
        self.configuration = configuration
    }

    /// Connected to the broker (first time or after a reconnect): (re)send the claim unless released.
    public mutating func connected(now: MonotonicInstant, wallClock: WallInstant) -> [Action] {
        let nowUs = now.us
        switch control {
        case .released: return []
        case .idle:
            control = .pending
            claimTimestampUs = wallClock.us
            return claimOnConnect(nowUs: nowUs)
        case .pending, .holding:
            return claimOnConnect(nowUs: nowUs)
        }
    }

    private mutating func claimOnConnect(nowUs: Int64) -> [Action] {
        connectedAtUs = nowUs
        claimOnNextState = controllerRunId == nil
        return controllerRunId == nil ? [] : [claim(nowUs: nowUs)]
    }

    public mutating func controllerState(_ state: ControllerState, now: MonotonicInstant) -> [Action] {
        let nowUs = now.us
        // Remembered before connecting too: the retained state may arrive before the connect is noticed.
        controllerRunId = state.runId
        guard control != .released, control != .idle else { return [] }
        let deferredClaim = claimOnNextState
        claimOnNextState = false
        let previousPilot = currentPilot
        currentPilot = state.pilotId
        if state.pilotId == configuration.senderId {
            guard control != .holding else { return [] }
            control = .holding
            return [.gainedControl]
        }
        var actions: [Action] = []
        if control == .holding {
            control = .pending
            actions.append(.lostControl(to: state.pilotId))
        } else if !state.pilotId.isEmpty, state.pilotId != previousPilot, !offlinePilots.contains(state.pilotId) {
            actions.append(.waitingForPilot(state.pilotId))
        }
        if isControlFree || deferredClaim {
            actions.append(claim(nowUs: nowUs))
        }
        return actions
    }

    /// Presence of another broadcaster (by its sender id). A pilot going offline frees control.
    public mutating func pilotPresence(senderId: String, online: Bool, now: MonotonicInstant) -> [Action] {
        let nowUs = now.us
        if online { offlinePilots.remove(senderId) } else if senderId != configuration.senderId {
            offlinePilots.insert(senderId)
        }
        guard control == .pending, !online, senderId == currentPilot else { return [] }
        return [claim(nowUs: nowUs)]
    }

    public mutating func tick(now: MonotonicInstant) -> [Action] {
        let nowUs = now.us
        guard control == .pending, isControlFree else { return [] }
        guard controllerRunId != nil else {
            guard !reportedWaitingForController, nowUs &- connectedAtUs >= configuration.retryInterval.us else {
                return []
            }
            reportedWaitingForController = true
            return [.waitingForController]
        }
        if let last = lastClaimSentUs, nowUs &- last < configuration.retryInterval.us, nowUs >= last { return [] }
        return [claim(nowUs: nowUs)]
    }

    /// Shutting down: give control back so another broadcaster can take over at once rather than after our
    /// presence times out.
    public mutating func shutdown(wallClock: WallInstant) -> [Action] {
        // Nothing to give back when no claim ever went out.
        guard control == .pending || control == .holding, lastClaimSentUs != nil else {
            control = .released
            return []
        }
        control = .released
        sequence &+= 1
        return [.sendRelease(ControlClaim(
            senderId: configuration.senderId, sequence: sequence, timestampUs: wallClock.us, action: .release,
            controllerRunId: controllerRunId ?? RunAddress.none))]
    }

    public var holdsControl: Bool { control == .holding }

    private var isControlFree: Bool {
        currentPilot.isEmpty || offlinePilots.contains(currentPilot)
    }

    private mutating func claim(nowUs: Int64) -> Action {
        sequence &+= 1
        lastClaimSentUs = nowUs
        return .sendClaim(ControlClaim(
            senderId: configuration.senderId, sequence: sequence, timestampUs: claimTimestampUs ?? 0,
            action: .claim, controllerRunId: controllerRunId ?? RunAddress.none))
    }
}

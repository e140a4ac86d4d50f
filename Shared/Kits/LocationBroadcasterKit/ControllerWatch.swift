import GroundStation
import QuadMQTT
import QuadProtocol
import QuadService

/// The controller's side of a one-shot request: what it said before we published, whether one serves the drone
/// at all, and its answer afterwards (judged by ControllerReply).
struct ControllerWatch {
    let feed: BusFeed
    let inbox: Inbox<BusFeed.Event>
    let drone: DroneID

    /// Subscribes and waits (at most `settleS`) for the retained presence and controller state.
    static func open(client: any MQTTConnection, drone: DroneID, telemetry: Bool = false,
        settleS: Double = 0.5) async throws
        -> ControllerWatch {
        let feed = try BusFeed(client: client, drone: drone, telemetry: telemetry)
        let watch = ControllerWatch(feed: feed, inbox: feed.inbox(), drone: drone)
        let untilUs = MonotonicClock.nowUs() + Int64(settleS * 1_000_000)
        while feed.latest.controller == nil || feed.presence(of: "drone-controller") == nil,
              MonotonicClock.nowUs() < untilUs {
            try await Task.sleep(for: .milliseconds(20))
        }
        // No retained state came (RabbitMQ keeps retained messages on the node that got them and gives none to a
        // wildcard; a NATS cluster node may not either): drone-controller repeats its state every 5 s, wait for it
        // before saying there is none.
        let liveUntilUs = untilUs - Int64(settleS * 1_000_000) + StatusBoard.defaultPresenceWait.us
        while feed.latest.controller == nil, feed.presence(of: "drone-controller")?.state != .offline,
              MonotonicClock.nowUs() < liveUntilUs {
            try await Task.sleep(for: .milliseconds(20))
        }
        return watch
    }

    /// For the modes that keep sending (route, follow): waits for the broker, then watches like a one-shot command
    /// and throws, as `target` does, when no drone-controller serves the drone (`route --drone drone9` sent its
    /// first waypoint until killed).
    static func openServed(runtime: ServiceRuntime, broker: String, settleS: Double = 0.5) async throws
        -> ControllerWatch {
        // Without a broker nothing is sent and nothing is heard: say so, not "no controller" or "not reached".
        guard await runtime.client.waitUntilConnected(timeout: .seconds(BusSession.connectTimeoutS)) else {
            throw CLIFailure("cannot reach the broker at \(broker) within \(Int(BusSession.connectTimeoutS)) s")
        }
        let watch = try await open(client: runtime.client, drone: runtime.drone, settleS: settleS)
        try watch.requireController()
        return watch
    }

    var last: ControllerState? { feed.latest.controller }

    /// Throws when no drone-controller serves this drone (nothing it is sent would be acted on).
    func requireController() throws {
        let online = feed.presence(of: "drone-controller").map { $0.state == .online }
        if let problem = ControllerAvailability.problem(
            drone: drone.rawValue, online: online, hasControllerState: last != nil,
            dronesWithController: feed.dronesWithController) {
            throw CLIFailure(problem)
        }
    }

    /// The controller run to address what we send to: the run in its last state (RunAddress.none from a
    /// controller without run ids). Without any state nothing is sent (throws) unless `unaddressedIfUnknown`
    /// (emergency, --no-wait): then it goes out unaddressed, and we say so.
    func runAddress(for what: String, unaddressedIfUnknown: Bool) throws -> UInt32 {
        if let last { return last.runId }
        let problem = "no state from drone-controller for drone '\(drone.rawValue)' yet, so \(what) cannot be "
            + "addressed to its run"
        guard unaddressedIfUnknown else { throw CLIFailure("\(problem); nothing sent") }
        printError("note: \(problem); sending it unaddressed")
        return RunAddress.none
    }

    /// Forgets what arrived so far: only states after the publication are answers.
    func markPublished() { _ = inbox.take().events }

    /// Waits for the controller's verdict on `reply` until `deadlineUs` (monotonic). Prints each new state.
    /// Returns the accepting state (nil when acceptance was silent); throws on refusal or when nothing came.
    func answer(_ reply: ControllerReply, what: String, timeoutS: Double, deadlineUs: Int64) async throws
        -> ControllerState? {
        // drone-controller answers every command, even one that changes nothing, so a command's answer is waited
        // for (a quiet 1.5 s took a refusal that came late on a busy machine for an acceptance). A target it
        // already has is no news and gets no answer: there a quiet grace still means accepted.
        let silentUntilUs = reply.isTarget ? MonotonicClock.nowUs() + Self.silentGraceUs : deadlineUs
        var latest = reply.before
        while MonotonicClock.nowUs() < deadlineUs {
            for case .controller(let state, let retained) in inbox.take().events {
                guard reply.isNewer(state, retained: retained) else { continue }
                if let latest, !ControllerReply.isNewer(state, than: latest) { continue }
                latest = state
                say("controller: \(state.summary)")
                switch reply.judge(state, retained: retained) {
                case .accepted: return state
                case .refused where reply.restartedRun(in: state) != nil:
                    throw RunChanged(state: state, runId: reply.restartedRun(in: state) ?? RunAddress.none)
                case .refused(let reason):
                    // `takeoff-timeout`: accepted first, then given up by the controller itself.
                    let verdict = reason.isFailure ? "failed, the controller reports" : "refused by the controller:"
                    throw CLIFailure("\(what) \(verdict) \(TextFormat.clean(reason.code, width: 64))"
                        + airspaceDetail(reason) + " (activity \(state.activity.cliName), pilot \(Self.pilot(state)))")
                case .pending: break
                }
            }
            if reply.acceptanceIsSilent, MonotonicClock.nowUs() >= silentUntilUs { return nil }
            try await Task.sleep(for: .milliseconds(50))
        }
        if reply.acceptanceIsSilent { return nil }
        let status = latest.map { "the controller's last state: \($0.summary), pilot \(Self.pilot($0))" }
            ?? "no controller state received (is drone-controller running?)"
        throw CLIFailure(
            "\(what): no answer from the controller within \(TextFormat.fixed(timeoutS, digits: 1)) s; \(status)")
    }

    /// The controller refused what we sent as addressed to an earlier run: it restarted after we read its state.
    /// The sender may send it once more, to `runId` (the user's order is current; only the address was old).
    struct RunChanged: Error {
        let state: ControllerState
        let runId: UInt32
    }

    /// How long to wait for a refusal of a target the controller already has (it publishes nothing on accepting it).
    static let silentGraceUs: Int64 = 1_500_000


    /// `: zone 'lake' (inside keep-out zone)` for a target the airspace forbids: the controller publishes the
    /// zone in its airspace status just before the refusal.
    func airspaceDetail(_ reason: Reason) -> String {
        let airspaceReasons: Set<Reason> = [.targetRefusedKeepOut, .targetRefusedOutsideInclusion,
                                            .targetRefusedAirspaceMargin, .targetRefusedAirspaceCeiling,
                                            .targetRefusedAirspaceFloor]
        guard airspaceReasons.contains(reason), let refusal = feed.latest.airspace?.targetRefusal else { return "" }
        let zone = refusal.zoneName.isEmpty ? "" : " zone '\(TextFormat.clean(refusal.zoneName, width: 64))'"
        return ":\(zone) (\(refusal.violation.text))"
    }

    static func pilot(_ state: ControllerState) -> String {
        state.pilotId.isEmpty ? "none" : TextFormat.clean(state.pilotId, width: 64)
    }
}

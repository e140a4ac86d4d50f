import GroundStation
import QuadProtocol
import QuadService
import Synchronization

/// Performs what PilotClaimer decides (`--claim`, `claim`): sends claims, watches ControllerState.pilotId and the
/// other broadcasters' presence, and releases control when the process ends gracefully.
final class PilotSession: Sendable {
    private let claimer: Mutex<PilotClaimer>
    private let runtime: ServiceRuntime
    private let inbox: Inbox<BusFeed.Event>
    /// MQTT 5 Message Expiry of every claim and release (`--command-ttl`).
    private let expiryS: UInt32

    init(runtime: ServiceRuntime, feed: BusFeed, senderId: String, expiryS: UInt32) {
        claimer = Mutex(PilotClaimer(configuration: .init(senderId: senderId)))
        self.runtime = runtime
        self.expiryS = expiryS
        inbox = feed.inbox()
    }

    var holdsControl: Bool { claimer.withLock { $0.holdsControl } }

    /// Claims on every (re)connect and follows the controller until cancelled.
    func run() async {
        var wasConnected = false
        while !Task.isCancelled {
            let now = MonotonicClock.now()
            let connected = runtime.client.isConnected
            var actions: [PilotClaimer.Action] = []
            if connected, !wasConnected {
                actions += claimer.withLock { $0.connected(now: now, wallClock: WallClock.now()) }
            }
            wasConnected = connected
            for event in inbox.take().events {
                switch event {
                case .controller(let state, _):
                    actions += claimer.withLock { $0.controllerState(state, now: now) }
                case .presence(let name, let status):
                    actions += claimer.withLock {
                        $0.pilotPresence(senderId: name, online: status.state == .online, now: now)
                    }
                case .drone, .link, .navigation:
                    break
                }
            }
            actions += claimer.withLock { $0.tick(now: now) }
            actions.forEach(perform)
            try? await Task.sleep(for: .milliseconds(100))
        }
    }

    /// Gives control back (waits up to 0.4 s for the broker, and not at all without a connection: a stop must
    /// finish within 2 s), so another broadcaster can take over at once.
    func release() async {
        let actions = claimer.withLock { $0.shutdown(wallClock: WallClock.now()) }
        for case .sendRelease(let claim) in actions {
            guard let payload = try? claim.encoded() else { continue }
            let topic = Topics.controlClaim.topic(for: runtime.drone)
            guard runtime.client.isConnected else {
                say("pilot control not released: no broker connection")
                continue
            }
            if (try? await runtime.client.publishAndWait(topic: topic, payload: payload, qos: 1, retain: false,
                                                         expiryS: expiryS, timeout: .seconds(0.4))) != nil {
                say("pilot control released")
            }
        }
    }

    private func perform(_ action: PilotClaimer.Action) {
        switch action {
        case .sendClaim(let claim), .sendRelease(let claim):
            do {
                try runtime.publish(Topics.controlClaim, payload: claim.encoded(), expiryS: expiryS)
            } catch {
                runtime.logger.warning("could not send the pilot claim: \(error)")
            }
        case .gainedControl:
            say("pilot control granted: \(runtime.service) is the pilot")
        case .lostControl(let pilot):
            say(pilot.isEmpty
                ? "pilot control lost: nobody is the pilot"
                    : "pilot control lost to \(TextFormat.clean(pilot, width: 64))")
        case .waitingForPilot(let pilot):
            say("\(TextFormat.clean(pilot, width: 64)) holds pilot control; waiting for it to be released")
        case .waitingForController:
            say("no state from drone-controller for drone '\(runtime.drone.rawValue)' yet: "
                + "claiming pilot control once it publishes one (claims are addressed to its run)")
        }
    }
}

extension PilotSession {
    /// Runs `body` while claiming control through `runtime` (nil: no claim), then releases control — also when
    /// `body` ends because of SIGINT/SIGTERM.
    static func alongside<T: Sendable>(_ runtime: ServiceRuntime?, _ resolved: BroadcasterOptions.Resolved,
                                       _ body: (PilotSession?) async throws -> T) async throws -> T {
        guard let runtime else { return try await body(nil) }
        let feed = try BusFeed(client: runtime.client, drone: runtime.drone, telemetry: false)
        let session = PilotSession(runtime: runtime, feed: feed, senderId: resolved.senderId,
                                   expiryS: resolved.commandExpiryS)
        let claiming = Task { await session.run() }
        defer { claiming.cancel() }
        let result: Result<T, any Error>
        do { result = .success(try await body(session)) } catch { result = .failure(error) }
        claiming.cancel()
        // A fresh task: the release must go out even when this one was cancelled by the shutdown.
        await Task { await session.release() }.value
        return try result.get()
    }
}

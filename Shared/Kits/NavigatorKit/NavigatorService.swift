import Clocks
import GPSD
import Logging
import Navigation
import QuadMQTT
import QuadProtocol
import QuadService
import ServiceLifecycle

/// Feeds position, heading and target into the pure `NavigationSolver` and publishes every new solution at once
/// (no timer: a new target reaches the controller within one broker hop).
struct NavigatorService: Service {
    enum Event: Sendable {
        /// `wallClock`: the stamp a JSON target gets (`InboundTarget.decode`); ages count from `receivedAt`.
        case target(MQTTMessage, receivedAt: MonotonicInstant, wallClock: WallInstant)
        case position(MQTTMessage, receivedAt: MonotonicInstant)
        case drone(MQTTMessage, receivedAt: MonotonicInstant)
        case controller(MQTTMessage, receivedAt: MonotonicInstant)
        /// `--position gpsd`: a usable fix from the gpsd on the board.
        /// `receivedAt` is monotonic like every receive stamp; `wallClock` is for checking the fix's own
        /// time (written by the GPS receiver, read through this host's gpsd) against this host's wall clock.
        case gpsFix(GPSFix, receivedAt: MonotonicInstant, wallClock: WallInstant)
    }

    let runtime: ServiceRuntime
    let configuration: TargetFollowingNavigator.Configuration

    func run() async throws {
        let inbox = Inbox<Event>()
        try runtime.feed(inbox, Topics.target) { .target($0, receivedAt: $1, wallClock: WallClock.now()) }
        var gpsd: Task<Void, Never>?
        switch configuration.positionSource {
        case .telemetry:
            try runtime.feed(inbox, Topics.position) { .position($0, receivedAt: $1) }
        case .gpsd(let address):
            let feed = GPSDPositionFeed(address: address, logger: runtime.logger)
            gpsd = Task { await feed.run(into: inbox) }
        }
        defer { gpsd?.cancel() }
        try runtime.feed(inbox, Topics.droneState) { .drone($0, receivedAt: $1) }
        try runtime.feed(inbox, Topics.controllerState) { .controller($0, receivedAt: $1) }
        await cancelWhenGracefulShutdown {
            var navigator = TargetFollowingNavigator(configuration: configuration)
            var rejections = RejectionCounter()
            for await event in inbox.events {
                do {
                    if let solution = try navigator.handle(event) { publish(solution) }
                } catch {
                    rejections.record(event.kind, reason: "\(error)", topic: event.topic, logger: runtime.logger)
                }
            }
            runtime.logger.notice("""
                rejected in total: \(rejections.total) (\(rejections.summary)); dropped unread: \(inbox.droppedCount)
                """)
        }
        inbox.finish()
    }

    private func publish(_ solution: NavigationSolution) {
        var solution = solution
        // Ages inside the solution come from monotonic receive times; its stamp is wall time, for logs only.
        solution.timestampUs = WallClock.nowUs()
        do {
            try runtime.publish(Topics.navigation, payload: solution.encoded())
        } catch {
            runtime.logger.debug("navigation solution not published: \(error)")
        }
    }
}

extension NavigatorService.Event {
    var kind: String {
        switch self {
        case .target: "target"
        case .position: "position"
        case .drone: "drone-state"
        case .controller: "controller-state"
        case .gpsFix: "gpsd-fix"
        }
    }

    var topic: String {
        switch self {
        case .target(let m, _, _), .position(let m, _), .drone(let m, _), .controller(let m, _): m.topic
        case .gpsFix: "gpsd"
        }
    }
}

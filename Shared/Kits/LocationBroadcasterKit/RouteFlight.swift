import GroundStation
import QuadProtocol
import QuadService

/// Performs what RouteStateMachine decides and prints the progress.
struct RouteFlight {
    let runtime: ServiceRuntime
    let inbox: Inbox<BusFeed.Event>
    let arrivalTimeoutUs: Int64
    /// `host:port`, for messages.
    let broker: String
    var machine: RouteStateMachine
    private var currentIndex: Int?
    private var currentSinceUs: Int64 = 0
    private var lastController: ControllerState?

    init(runtime: ServiceRuntime, inbox: Inbox<BusFeed.Event>, arrivalTimeoutUs: Int64, broker: String,
        machine: RouteStateMachine) {
        self.runtime = runtime
        self.broker = broker
        self.inbox = inbox
        self.arrivalTimeoutUs = arrivalTimeoutUs
        self.machine = machine
    }

    /// Returns at the end of the route; throws when a waypoint times out. `inbox`: a ControllerWatch's (opened
    /// with `openServed`: the broker reached, a controller serving the drone).
    mutating func run() async throws {
        // The retained controller state first: the targets are addressed to its run.
        let settleUntilUs = MonotonicClock.nowUs() + 500_000
        while lastController == nil, MonotonicClock.nowUs() < settleUntilUs {
            for case .controller(let state, _) in inbox.take().events {
                lastController = state
                _ = machine.controllerState(state, now: MonotonicClock.now(), wallClock: WallClock.now())
            }
            if lastController == nil { try await Task.sleep(for: .milliseconds(20)) }
        }
        if lastController == nil {
            printError("note: no state from drone-controller for drone '\(runtime.drone.rawValue)' yet: targets go "
                + "unaddressed until it publishes one (then to its run)")
        }
        guard perform(machine.start(now: MonotonicClock.now(), wallClock: WallClock.now())) else { return }
        while !Task.isCancelled {
            try await Task.sleep(for: .milliseconds(100))
            let now = MonotonicClock.now(), wallClock = WallClock.now()
            var actions: [RouteStateMachine.Action] = []
            for case .controller(let state, _) in inbox.take().events {
                lastController = state
                actions += machine.controllerState(state, now: now, wallClock: wallClock)
            }
            actions += machine.tick(now: now, wallClock: wallClock)
            guard perform(actions) else { return }
            if arrivalTimeoutUs > 0, let index = currentIndex, now.us &- currentSinceUs > arrivalTimeoutUs {
                let controller = !runtime.client.isConnected ? "the broker at \(broker) is unreachable"
                    : lastController.map { "controller: \($0.summary)" } ?? "no controller state received"
                throw CLIFailure("waypoint \(index + 1)/\(machine.waypoints.count) not reached within "
                    + "\(arrivalTimeoutUs / 1_000_000) s (\(controller))")
            }
        }
    }

    /// Returns false once the route is finished.
    private mutating func perform(_ actions: [RouteStateMachine.Action]) -> Bool {
        for action in actions {
            switch action {
            case .publishTarget(let target, let index):
                do {
                    try runtime.publish(Topics.target, payload: target.encoded(),
                                        expiryS: MessageExpiry.seconds(forTTL: target.ttlS))
                } catch {
                    // Re-sent every interval anyway; a broker outage must not end the route.
                    runtime.logger.warning("target not sent: \(error)")
                }
                if index != currentIndex {
                    currentIndex = index
                    currentSinceUs = MonotonicClock.nowUs()
                    let w = machine.waypoints[index]
                    say("waypoint \(index + 1)/\(machine.waypoints.count): "
                        + TextFormat.coordinate(latitudeDeg: w.latitudeDeg, longitudeDeg: w.longitudeDeg)
                        + (w.altitudeM.map { " alt \(TextFormat.fixed($0, digits: 1)) m" } ?? "") + " (line \(w.line))")
                }
            case .reportArrived(let index, let count):
                say("arrived at waypoint \(index + 1)/\(count)")
            case .finished:
                say("route finished")
                return false
            }
        }
        return true
    }
}


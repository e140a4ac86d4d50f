import CommandLineSupport
import GroundStation
import QuadProtocol
import QuadService

/// Feeds the StatusBoard from the bus and prints it (or the compact line) every interval.
struct StatusView {
    let goal: ControllerState.Activity?
    let line: Bool
    let watch: Bool
    let clearScreen: Bool
    private var board: StatusBoard
    private var controller: ControllerState?

    /// `presenceWait`: how long a service not heard from is "waiting" (one re-announce interval and a half second).
    init(drone: DroneID, goal: ControllerState.Activity?, line: Bool, watch: Bool, clearScreen: Bool,
         presenceWait: Duration = StatusBoard.defaultPresenceWait) {
        // Broadcasters announce themselves under their sender ids, so they show up as extra services.
        board = StatusBoard(drone: drone, expectedServices: StatusBoard.defaultExpectedServices.filter {
            $0 != "location-broadcaster"
        })
        board.presenceWait = presenceWait
        self.goal = goal
        self.line = line
        self.watch = watch
        self.clearScreen = clearScreen
    }

    mutating func run(feed: BusFeed, interval: DurationText, timeoutS: Double?) async throws {
        let inbox = feed.inbox()
        defer { if let offset = feed.latest.clockOffset, ClockOffsetEstimator.exceedsWarning(offset) {
            say("warning: the board's clock is \(TextFormat.fixed(Double(offset.us) / 1e6, digits: 1)) s "
                + "from this laptop's; "
                + "logs and exports of the two hosts will not line up (sync them with chrony, see deploy/README.md)")
        } }
        let startUs = MonotonicClock.nowUs()
        board.watchingSince = MonotonicClock.now()
        let endUs = timeoutS.map { startUs + Int64($0 * 1_000_000) }
        // Retained presence and controller state arrive at once; telemetry within a fraction of a second.
        try await Task.sleep(for: .milliseconds(watch ? 300 : 800))
        if !watch {
            // A broker that withholds retained statuses from a wildcard subscription (RabbitMQ) still shows each
            // running service within one re-announce interval: wait that long before calling one "unknown".
            while !board.unseenExpectedServices.isEmpty, MonotonicClock.nowUs() - startUs < board.presenceWait.us {
                _ = absorb(inbox.take().events)
                if board.unseenExpectedServices.isEmpty { break }
                try await Task.sleep(for: .milliseconds(100))
            }
        }
        while true {
            let reached = absorb(inbox.take().events)
            let elapsedUs = MonotonicClock.nowUs() - startUs
            board.update(clockOffset: feed.latest.clockOffset)
            board.update(route: feed.latest.route)
            show(elapsedUs: elapsedUs)
            if reached || !watch { return }
            if let endUs, MonotonicClock.nowUs() >= endUs {
                guard let goal else { return }
                let state = controller.map { "controller: \($0.summary)" } ?? "no controller state received"
                throw CLIFailure(
                    "status: \(goal.cliName) not reached within \(TextFormat.fixed(timeoutS ?? 0, digits: 1)) s "
                    + "(\(state))")
            }
            try await Task.sleep(for: interval.duration)
        }
    }

    /// Returns whether the goal activity was seen (every controller state counts, also a short-lived one).
    private mutating func absorb(_ events: [BusFeed.Event]) -> Bool {
        // Ages on this machine's monotonic clock (a wall clock may step under chrony).
        let now = MonotonicClock.now()
        var reached = false
        for event in events {
            switch event {
            case .controller(let s, _):
                controller = s
                board.update(controller: s, receivedAt: now)
                if s.activity == goal { reached = true }
            case .presence(let name, let status):
                board.update(presence: ServicePresence(name: name, status: status), receivedAt: now)
            case .drone(let s):
                board.update(drone: s, receivedAt: now)
            case .link(let s):
                board.update(link: s, receivedAt: now)
            case .navigation(let s):
                board.update(navigation: s, receivedAt: now)
            }
        }
        return reached
    }

    private func show(elapsedUs: Int64) {
        if line {
            say(board.progressLine(elapsed: .microseconds(elapsedUs), now: MonotonicClock.now()))
        } else if watch && clearScreen {
            say("\u{1B}[H\u{1B}[2J" + board.render(now: MonotonicClock.now(), wall: WallClock.now()))
        } else {
            let screen = board.render(now: MonotonicClock.now(), wall: WallClock.now())
            say(screen + (watch ? "\n" + String(repeating: "-", count: 40) : ""))
        }
    }
}

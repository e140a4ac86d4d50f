import GroundStation
import InMemoryMQTT
import QuadMQTT
import QuadProtocol
import QuadService
import Testing
@testable import CommandLineSupport
@testable import LocationBroadcasterKit

/// `location-broadcaster status` over the in-memory broker: what it prints for services online, offline and not
/// heard from, and for telemetry.
@Suite("location-broadcaster status view")
struct StatusViewTests {
    let broker = InMemoryBroker()
    let drone = DroneID(rawValue: "drone1")!

    func announce(_ service: String, online: Bool, retain: Bool = true, drone: String = "drone1") {
        let status = ServiceStatus(state: online ? .online : .offline, service: service, version: "0.1.0",
                                   startedAt: 1, pid: 1)
        broker.inject(MQTTMessage(topic: "quad/\(drone)/status/\(service)", payload: status.encodedJSON(), qos: 1,
                                  retain: retain))
    }

    func line(_ screen: String, _ service: String) -> String {
        screen.split(separator: "\n").map(String.init).first { $0.hasPrefix("  \(service) ") }
            ?? "(no line for \(service))"
    }

    @Test("one screen: online and OFFLINE services; one never heard from is `unknown` only after a re-announce period")
    func oneShot() async throws {
        announce("drone-link", online: true)
        announce("navigator", online: true)
        try FakeController(broker: broker, activity: .hovering).start(announce: false)
        announce("drone-controller", online: false)
        let feed = try BusFeed(client: try groundConnection(broker), drone: drone)
        // What this test is about is the screen, not how fast retained messages arrive in a busy test process.
        #expect(await eventually {
            ["drone-link", "navigator", "drone-controller"].allSatisfy { feed.presence(of: $0) != nil }
                && feed.latest.controller != nil
        })
        let startUs = MonotonicClock.nowUs()
        let (_, console) = try await capturingConsole {
            var view = StatusView(drone: drone, goal: nil, line: false, watch: false, clearScreen: false)
            try await view.run(feed: feed, interval: DurationText(seconds: 1), timeoutS: nil)
        }
        let elapsedUs = MonotonicClock.nowUs() - startUs
        let screen = try #require(console.out.last)
        #expect(console.out.count == 1)
        #expect(line(screen, "drone-link").contains("online"), "\(screen)")
        #expect(line(screen, "navigator").contains("online"), "\(screen)")
        #expect(line(screen, "drone-controller").contains("OFFLINE"), "\(screen)")
        // telemetry-logger never announced: the screen waited a re-announce period before calling it unknown.
        #expect(line(screen, "telemetry-logger").contains("unknown"), "\(screen)")
        #expect(elapsedUs >= Int64(ServiceStatus.reannounceIntervalS * 1_000_000))
        #expect(screen.contains("activity  hovering"), "\(screen)")
    }

    @Test("watching: a service not heard from yet is `waiting`, then online once its (unretained) re-announce comes")
    func waitingThenOnline() async throws {
        try FakeController(broker: broker).start()
        let client = try groundConnection(broker)
        let capture = ConsoleCapture()
        let watching = Task {
            try await Console.$capture.withValue(capture) {
                // A starved run drew its first screen after the 5.5 s window: widen it (its end is
                // StatusBoardTests' business, with time passed in).
                var view = StatusView(drone: drone, goal: nil, line: false, watch: true, clearScreen: false,
                                      presenceWait: .seconds(600))
                try await view.run(feed: try BusFeed(client: client, drone: drone),
                                   interval: DurationText(seconds: 0.1), timeoutS: 4 * patientS)
            }
        }
        defer { watching.cancel() }
        #expect(await eventually { !capture.out.isEmpty })
        let first = try #require(capture.out.first)
        #expect(line(first, "navigator").contains("waiting"), "\(first)")
        // A broker that withholds retained messages from a wildcard subscription delivers only the re-announce.
        announce("navigator", online: true, retain: false)
        #expect(await eventually { capture.out.last.map { line($0, "navigator").contains("online") } == true },
                "\(capture.out.last ?? "")")
        let last = try #require(capture.out.last)
        #expect(line(last, "drone-controller").contains("online"), "\(last)")
        #expect(line(last, "drone-link").contains("waiting"), "\(last)")
    }

    @Test("telemetry that arrived is shown with its age and marked STALE when old, never as `no drone telemetry`")
    func staleTelemetry() throws {
        var board = StatusBoard(drone: drone)
        let state = DroneState(sequence: 1, timestampUs: 0, navdataSequence: 1, stateBits: 0, controlState: .hovering,
                               batteryPercent: 64, altitudeM: 2.5, pitchDeg: 0, rollDeg: 0, yawDeg: 0,
                               velocityXMps: 0, velocityYMps: 0, velocityZMps: 0)
        board.update(drone: state, receivedAt: .init(us: 1_000_000))
        let screen = board.render(now: .init(us: 61_000_000))
        let battery = line(screen, "battery")
        #expect(battery.contains("64 %") && battery.contains("age 1m00s") && battery.contains("STALE"), "\(screen)")
        #expect(!screen.contains("no drone telemetry"))
    }

    @Test("an old GPS fix is reported as old (receiver clock or replay?), never as `no GPS fix`")
    func oldFixIsNotNoFix() {
        let text = GPSFollower.describe(.offClock(ageS: 842), sending: false, lastTarget: nil)
        #expect(text.hasPrefix("gps fix is 842 s old — receiver clock or a replayed log?"), "\(text)")
        #expect(text.contains("not sending it (--accept-stale would)"), "\(text)")
        #expect(!text.lowercased().contains("no gps fix"))
        #expect(GPSFollower.describe(.noFixYet) == "waiting for the first fix")
    }

    @Test("--until: returns once the controller reports the activity; a timeout names its last state")
    func until() async throws {
        let controller = FakeController(broker: broker, activity: .flyingToTarget)
        try controller.start()
        let client = try groundConnection(broker)
        let arrival = Task {
            try await Task.sleep(for: .milliseconds(400))
            controller.arriveAtTargets()
            try controller.connection.publish(topic: Topics.target.topic(for: drone), payload: Target(
                senderId: "x", sequence: 1, timestampUs: 0, latitudeDeg: 52.5, longitudeDeg: 13.4).encoded(),
                qos: 1, retain: false)
        }
        let (_, console) = try await capturingConsole {
            var view = StatusView(drone: drone, goal: .arrived, line: true, watch: true, clearScreen: false)
            try await view.run(feed: try BusFeed(client: client, drone: drone), interval: DurationText(seconds: 0.1),
                               timeoutS: patientS)
        }
        try await arrival.value
        #expect(console.out.last?.contains("arrived") == true, "\(console.out)")

        let feed = try BusFeed(client: try groundConnection(broker, "g2"), drone: drone)
        #expect(await eventually { feed.latest.controller?.activity == .arrived })
        let error = await #expect(throws: CLIFailure.self) {
            try await capturingConsole {
                var view = StatusView(drone: drone, goal: .landed, line: true, watch: true, clearScreen: false)
                try await view.run(feed: feed, interval: DurationText(seconds: 0.1), timeoutS: 2)
            }
        }
        #expect(error?.message == "status: landed not reached within 2.0 s (controller: arrived (arrived))")
    }
}

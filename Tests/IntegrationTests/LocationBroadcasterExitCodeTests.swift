import Foundation
import ProcessSupport
import QuadMQTT
import QuadProtocol
import Testing

/// location-broadcaster exits 0 only when the controller accepted what it sent; a refusal, an unknown drone or a
/// mistyped input exits non-zero with a sentence that points the right way. The controller is a FakeController.
@Suite("location-broadcaster exit codes", .offPool, .serialized, .enabled(if: TestEnvironment.available("mosquitto")))
struct LocationBroadcasterExitCodeTests {
    static let drone = "lb2"
    let broker: BrokerProcess

    init() throws { broker = try BrokerProcess() }

    func topic(_ path: String) -> String { "quad/\(Self.drone)/\(path)" }

    func broadcaster(_ arguments: [String], drone: String = drone, timeoutS: Double = 60) async throws
        -> (code: Int32, output: String) {
        try await runToEnd("location-broadcaster", arguments + ["--broker", broker.address, "--drone", drone],
                           logDirectory: broker.directory, timeoutS: timeoutS)
    }

    /// A controller that is online, in `activity`, held by `pilot`, recording `paths`.
    func controller(_ id: String, _ activity: ControllerState.Activity, pilot: String = "",
        paths: [String]) async throws
        -> FakeController {
        let fake = try await FakeController(bus: BusRecorder(port: broker.port, id: id, filters: paths.map(topic)),
                                            drone: Self.drone)
        try await fake.announce()
        try await fake.publish(activity, reason: .unspecified, pilot: pilot, retain: true)
        return fake
    }

    @Test("flat-trim while airborne exits 1 with the controller's reason; on the ground it exits 0")
    func flatTrim() async throws {
        let fake = try await controller("ctl-trim", .hovering, paths: ["command"])
        let received = SequenceBox()
        let responder = fake.answer(on: "command") { _ in
            if received.next() == 1 {
                try await fake.publish(.hovering, reason: .flatTrimRefusedNotLanded)
            } else {
                try await fake.publish(.landed, reason: .flatTrim)
            }
        }
        defer { responder.cancel() }
        let refused = try await broadcaster(["flat-trim", "--timeout", "60"])
        #expect(refused.code == 1, "\(refused.output)")
        #expect(refused.output.contains("flat-trim refused by the controller: flat-trim-refused-not-landed "
            + "(activity hovering"), "\(refused.output)")

        try await fake.publish(.landed, reason: .droneLanded)
        let accepted = try await broadcaster(["flat-trim", "--timeout=60"])
        #expect(accepted.code == 0, "\(accepted.output)")
        #expect(accepted.output.contains("controller: landed (flat-trim)"), "\(accepted.output)")
    }

    @Test("takeoff that the controller gives up reports its reason (takeoff-timeout), not our timeout")
    func takeoffTimeout() async throws {
        let fake = try await controller("ctl-takeoff", .landed, paths: ["command"])
        let responder = fake.answer(on: "command") { _ in
            try await fake.publish(.takingOff, reason: .takeoff)
            try await fake.publish(.landing, reason: .takeoffTimeout)
        }
        defer { responder.cancel() }
        let run = try await broadcaster(["takeoff", "--timeout", "60"])
        #expect(run.code == 1, "\(run.output)")
        #expect(run.output.contains("takeoff failed, the controller reports takeoff-timeout (activity landing"),
                "\(run.output)")
        #expect(!run.output.contains("within 60.0 s"), "\(run.output)")
    }

    @Test("release by a non-holder exits 1 naming the pilot; by the holder exits 0")
    func release() async throws {
        let fake = try await controller("ctl-release", .hovering, pilot: "pa", paths: ["pilot/claim"])
        let responder = fake.answer(on: "pilot/claim") { payload in
            let claim = try ControlClaim(decoding: payload)
            if claim.senderId == "pa" {
                try await fake.publish(.hovering, reason: .controlReleased, pilot: "")
            } else {
                try await fake.publish(.hovering, reason: .notPilot, pilot: "pa")
            }
        }
        defer { responder.cancel() }
        let refused = try await broadcaster(["release", "--sender-id", "pb"])
        #expect(refused.code == 1, "\(refused.output)")
        #expect(refused.output.contains("release refused by the controller: not-pilot (activity hovering, pilot pa)"),
                "\(refused.output)")
        let released = try await broadcaster(["release", "--sender-id", "pa"])
        #expect(released.code == 0, "\(released.output)")
        #expect(released.output.contains("pilot control released; pilot now: none"), "\(released.output)")
    }

    @Test("target: exit 1 on a geofence refusal, exit 0 once the controller shows it (negative coordinates)")
    func targetVerdict() async throws {
        let fake = try await controller("ctl-target", .hovering, paths: ["target"])
        let responder = fake.answer(on: "target") { payload in
            let target = try Target(decoding: payload)
            if target.latitudeDeg > 0 {
                try await fake.publish(.hovering, reason: .targetRefusedGeofence)
            } else {
                try await fake.publish(.flyingToTarget, reason: .newTarget,
                                       target: (target.latitudeDeg, target.longitudeDeg))
            }
        }
        defer { responder.cancel() }
        let refused = try await broadcaster(["target", "52.5163", "13.3777", "--timeout", "60"])
        #expect(refused.code == 1, "\(refused.output)")
        #expect(refused.output.contains("target refused by the controller: target-refused-geofence"),
                "\(refused.output)")
        for words in [["-33.86", "151.2", "--timeout", "60"], ["--timeout=60", "-33.861,151.2"]] {
            let accepted = try await broadcaster(["target"] + words)
            #expect(accepted.code == 0, "\(words): \(accepted.output)")
            #expect(accepted.output.contains("controller: target accepted"), "\(accepted.output)")
        }
        let sent = try fake.bus.messages(on: topic("target")).map { try Target(decoding: $0.message.payload) }
        #expect(sent.map(\.latitudeDeg) == [52.5163, -33.86, -33.861])
    }

    /// Issue 33 item 9: hover from a sender that is not the pilot exited 0 (`already hovering (not-pilot)`).
    @Test("a refusal exits 1 with its reason for every command: hover while hovering, from a sender not the pilot")
    func hoverNotPilot() async throws {
        let fake = try await controller("ctl-hover", .hovering, pilot: "pa", paths: ["command"])
        try await fake.publish(.hovering, reason: .notPilot, pilot: "pa", retain: true)
        let responder = fake.answer(on: "command") { payload in
            let command = try Command(decoding: payload)
            try await fake.publish(.hovering, reason: command.senderId == "pa" ? .hover : .notPilot, pilot: "pa")
        }
        defer { responder.cancel() }
        let refused = try await broadcaster(["hover", "--sender-id", "other", "--timeout", "30"])
        #expect(refused.code == 1, "\(refused.output)")
        #expect(refused.output.contains("hover refused by the controller: not-pilot (activity hovering, pilot pa)"),
                "\(refused.output)")
        #expect(!refused.output.contains("already"), "\(refused.output)")
        let pilot = try await broadcaster(["hover", "--sender-id", "pa", "--timeout", "30"])
        #expect(pilot.code == 0, "\(pilot.output)")
    }

    @Test("target for a drone nobody serves: exit 1, nothing sent, the drones that have a controller named")
    func unknownDrone() async throws {
        let fake = try await controller("ctl-other", .landed, paths: [])
        let recorder = try await BusRecorder(port: broker.port, id: "rec-drone9", filters: ["quad/drone9/#"])
        let run = try await broadcaster(["target", "52.5163", "13.3777"], drone: "drone9")
        #expect(run.code == 1, "\(run.output)")
        #expect(run.output.contains("no drone-controller online for drone 'drone9' (seen: lb2)"), "\(run.output)")
        try await Task.sleep(for: .milliseconds(300))
        #expect(recorder.messages(on: "quad/drone9/target").isEmpty)
        // Issue 33 item 10: route kept sending until killed; follow too. The same check, the same message.
        let file = broker.directory.appendingPathComponent("drone9.csv")
        try "52.5163,13.3777\n".write(to: file, atomically: true, encoding: .utf8)
        for mode in [["route", file.path], ["follow", "--gpsd", "127.0.0.1:1"]] {
            let refused = try await broadcaster(mode, drone: "drone9", timeoutS: 30)
            #expect(refused.code == 1, "\(mode[0]): \(refused.output)")
            #expect(refused.output.contains("no drone-controller online for drone 'drone9' (seen: lb2)"),
                    "\(mode[0]): \(refused.output)")
        }
        try await Task.sleep(for: .milliseconds(300))
        #expect(recorder.messages(on: "quad/drone9/target").isEmpty)
        try await fake.announce(online: false)
        let offline = try await broadcaster(["land", "--timeout", "2"])
        #expect(offline.code == 1, "\(offline.output)")
        #expect(offline.output.contains("drone-controller for drone 'lb2' is offline"), "\(offline.output)")
    }

    @Test("target with latitude and longitude swapped: refused with the fix; --force sends it; --max-distance")
    func implausibleTarget() async throws {
        let bus = try await BusRecorder(port: broker.port, id: "rec-swap", filters: [topic("target")])
        let talker = talkPosition(52.5163, 13.3777, drone: Self.drone, via: bus)
        defer { talker.cancel() }
        let refused = try await broadcaster(["target", "13.3777", "52.5163", "--no-wait"])
        #expect(refused.code == 1, "\(refused.output)")
        #expect(refused.output.contains("target not sent: 13.3777, 52.5163 is "), "\(refused.output)")
        #expect(refused.output.contains("from the drone (limit 200.0 m); did you swap latitude and longitude? "
            + "'target 52.5163 13.3777' is 0.0 m from it; send it anyway with --force"), "\(refused.output)")
        let forced = try await broadcaster(["target", "13.3777", "52.5163", "--no-wait", "--force"])
        #expect(forced.code == 0, "\(forced.output)")
        #expect(forced.output.contains("warning: 13.3777, 52.5163 is "), "\(forced.output)")
        // 111 m north: inside the default 200 m, outside --max-distance 100.
        let tight = try await broadcaster(["target", "52.5173", "13.3777", "--no-wait", "--max-distance", "100"])
        #expect(tight.code == 1, "\(tight.output)")
        #expect(tight.output.contains("is 111.3 m from the drone (limit 100.0 m); send it anyway"), "\(tight.output)")
        let wide = try await broadcaster(["target", "52.5173", "13.3777", "--no-wait", "--max-distance=150"])
        #expect(wide.code == 0, "\(wide.output)")
        // The two sent (forced, wide) reach the recorder, however late a loaded machine delivers them; the refused
        // ones were never published, so nothing else can follow them.
        try await eventually(timeout: TestEnvironment.readinessTimeout, "the two targets sent") {
            bus.messages(on: topic("target")).count >= 2
        }
        #expect(bus.messages(on: topic("target")).count == 2)
    }

    @Test("what users type wrong: a subcommand typo, a degree sign, DMS, a mistyped option")
    func typedWrong() async throws {
        let typo = try await runToEnd("location-broadcaster", ["tagret", "1", "2", "--broker", "x"],
                                      logDirectory: broker.directory, timeoutS: 20)
        #expect(typo.code == 64, "\(typo.output)")
        #expect(typo.output.contains("unknown subcommand 'tagret' (did you mean 'target'?)"), "\(typo.output)")
        #expect(!typo.output.contains("Unknown option"), "\(typo.output)")

        let degree = try await broadcaster(["target", "52.5°", "13.4"])
        #expect(degree.code == 64, "usage: \(degree.output)")
        #expect(degree.output.contains(
            "latitude '52.5°' is not a decimal number; use decimal degrees: 52.5° is 52.5"),
                "\(degree.output)")
        let dms = try await broadcaster(["target", "52°31'12\"N", "13°22'40\"E"])
        #expect(dms.code == 64, "usage: \(dms.output)")
        #expect(dms.output.contains("use decimal degrees: 52°31'12\"N is 52.52"), "\(dms.output)")
        let option = try await broadcaster(["target", "52.5", "13.4", "--forse"])
        #expect(option.code == 64, "usage: \(option.output)")
        #expect(option.output.contains("unknown option '--forse'"), "\(option.output)")
    }
}

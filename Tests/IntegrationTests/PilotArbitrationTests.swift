import Foundation
import ProcessSupport
import QuadMQTT
import QuadProtocol
import Testing

/// Pilot arbitration end to end: the real drone-controller decides, two real `location-broadcaster claim`
/// processes ask. Claims need no drone (the controller grants them while landed without navdata), so no simulator
/// runs. Everything is judged from the retained ControllerState the controller publishes.
@Suite("Pilot arbitration", .offPool, .serialized, .enabled(if: TestEnvironment.available("mosquitto")))
struct PilotArbitrationTests {
    static let drone = "arb1"
    let broker: BrokerProcess

    init() throws { broker = try BrokerProcess() }

    var common: [String] { ["--broker", broker.address, "--drone", Self.drone] }

    func start(_ executable: String, _ arguments: [String]) throws -> ChildProcess {
        try ChildProcess(executable: TestEnvironment.executable(executable).path, arguments: arguments + common,
                         logDirectory: broker.directory)
    }

    func claimer(_ senderId: String) throws -> ChildProcess {
        try start("location-broadcaster", ["claim", "--sender-id", senderId])
    }

    func broadcaster(_ arguments: [String]) async throws -> (code: Int32, output: String) {
        try await runToEnd("location-broadcaster", arguments + common, logDirectory: broker.directory)
    }

    @Test("first claim wins; others are refused until the pilot's Last Will frees control")
    func arbitration() async throws {
        let topic = "quad/\(Self.drone)/telemetry/controller"
        let bus = try await BusRecorder(port: broker.port, id: "rec-arbitration", filters: [topic])
        func states() throws -> [ControllerState] {
            try bus.messages(on: topic).map { try ControllerState(decoding: $0.message.payload) }
        }
        let controller = try start("drone-controller", [])
        defer { controller.stop() }
        let a = try claimer("a")
        defer { a.stop(signal: SIGKILL) }
        var b: ChildProcess?
        defer { b?.stop(signal: SIGKILL) }
        func logs() -> String {
            [("controller", controller), ("a", a), ("b", b)].compactMap { name, child in
                child.map { "--- \(name)\n\($0.output().suffix(3000))" }
            }.joined(separator: "\n")
        }
        /// Waits for a state published after the first `skip` ones that satisfies `condition`; returns its index.
        func awaitState(after skip: Int, _ what: String,
                        _ condition: @escaping (ControllerState) -> Bool) async throws -> Int {
            let deadline = Date().addingTimeInterval(20)
            repeat {
                if let found = try states().enumerated().dropFirst(skip).first(where: { condition($0.element) }) {
                    return found.offset
                }
                try await Task.sleep(for: .milliseconds(20))
            } while Date() < deadline
            let history = try states().map(Self.describe).joined(separator: "\n")
            throw TestEnvironmentError.timeout("\(what); controller states:\n\(history)\n\(logs())")
        }

        // 1. The first claim is granted.
        var seen = try await awaitState(after: 0, "a is the pilot") { $0.pilotId == "a" }
        #expect(try states()[seen].reason == .controlGranted)
        try await eventually(timeout: TestEnvironment.readinessTimeout, "a hears it holds control\n\(logs())") {
            a.output().contains("pilot control granted")
        }

        // 2. A second claimer is refused while a holds control, and says it is waiting.
        b = try claimer("b")
        seen = try await awaitState(after: seen, "b's claim refused") { $0.reason == .claimRefused }
        #expect(try states()[seen].pilotId == "a")
        try await eventually(timeout: TestEnvironment.readinessTimeout, "b waits for a\n\(logs())") {
            b?.output().contains("a holds pilot control; waiting for it to be released") == true
        }

        // 3. A pilot command from b is refused: not the pilot.
        let hover = try await broadcaster(["hover", "--sender-id", "b", "--timeout", "10"])
        #expect(hover.code == 1, "\(hover.output)")
        #expect(hover.output.contains("hover refused by the controller: not-pilot (activity unknown, pilot a)"),
                "\(hover.output)")
        seen = try await awaitState(after: seen, "b's hover refused") { $0.reason == .notPilot }

        // 4. The pilot's target is accepted (stored: no navdata says the drone flies); b's is refused, changes nothing.
        let fromA = try await broadcaster(["target", "52.5163", "13.3777", "--sender-id", "a"])
        #expect(fromA.code == 0, "\(fromA.output)")
        seen = try await awaitState(after: seen, "a's target stored") {
            $0.reason == .targetStored && $0.targetLatitudeDeg == 52.5163
        }
        let fromB = try await broadcaster(["target", "52.5170", "13.3790", "--sender-id", "b"])
        // The broker took it; the controller refused it, and the command says so.
        #expect(fromB.code == 1, "\(fromB.output)")
        #expect(fromB.output.contains("target refused by the controller: not-pilot (activity unknown, pilot a)"),
                "\(fromB.output)")
        seen = try await awaitState(after: seen, "b's target refused") { $0.reason == .notPilot }
        let refused = try states()[seen]
        #expect(refused.pilotId == "a")
        #expect(refused.targetLatitudeDeg == 52.5163 && refused.targetLongitudeDeg == 13.3777)

        // 5. Emergency is accepted from anyone.
        let emergency = try await broadcaster(["emergency", "--sender-id", "b", "--timeout", "10"])
        #expect(emergency.code == 0, "\(emergency.output)")
        #expect(emergency.output.contains("controller: emergency"), "\(emergency.output)")
        seen = try await awaitState(after: seen, "emergency from b") { $0.activity == .emergency }
        #expect(try states()[seen].pilotId == "a")

        // 6. a dies without releasing: the broker's Last Will says it is offline, control is free, b takes it.
        #expect(a.stop(signal: SIGKILL) == 128 + SIGKILL)
        seen = try await awaitState(after: seen, "a lost") { $0.reason == .pilotLost }
        #expect(try states()[seen].pilotId == "")
        seen = try await awaitState(after: seen, "b is the pilot") { $0.pilotId == "b" }
        #expect(try states()[seen].reason == .controlGranted)
        try await eventually(timeout: TestEnvironment.readinessTimeout, "b hears it holds control\n\(logs())") {
            b?.output().contains("pilot control granted") == true
        }

        // 7. b stops gracefully and gives control back.
        #expect(b?.stop(signal: SIGTERM) == 0, "\(logs())")
        seen = try await awaitState(after: seen, "b released") { $0.reason == .controlReleased }
        #expect(try states()[seen].pilotId == "")
    }

    static func describe(_ state: ControllerState) -> String {
        "\(state.activity.jsonName) (\(state.reason)) pilot '\(state.pilotId)'"
    }
}

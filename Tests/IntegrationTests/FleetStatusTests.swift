import Foundation
import ProcessSupport
import Testing

/// `location-broadcaster status --all` against real services: two drone ids on one broker, each with its own
/// navigator and drone-controller (their presence and the controller's retained state are all the table needs).
@Suite("location-broadcaster status --all", .offPool, .enabled(if: TestEnvironment.available("mosquitto")))
struct FleetStatusTests {
    @Test("lists both drones with their services and activity; a stopped navigator shows OFF")
    func twoDrones() async throws {
        let broker = try BrokerProcess()
        defer { broker.stop() }
        var children: [ChildProcess] = []
        defer { children.forEach { $0.stop(signal: SIGTERM) } }
        for drone in ["fleet1", "fleet2"] {
            for service in ["navigator", "drone-controller"] {
                children.append(try ChildProcess(executable: TestEnvironment.executable(service).path,
                                                 arguments: ["--broker", broker.address, "--drone", drone],
                                                 name: "\(service)-\(drone)", logDirectory: broker.directory))
            }
        }
        let bus = try await BusRecorder(port: broker.port, id: "fleet-status-watch", filters: ["quad/+/status/#"])
        func online(_ drone: String, _ service: String) -> Bool {
            bus.messages(on: "quad/\(drone)/status/\(service)").last
                .map { String(decoding: $0.message.payload, as: UTF8.self).contains(#""state":"online""#) } == true
        }
        try await eventually(timeout: TestEnvironment.readinessTimeout, "all four services online") {
            ["fleet1", "fleet2"].allSatisfy { online($0, "navigator") && online($0, "drone-controller") }
        }
        // fleet2's navigator stops: its goodbye leaves a retained `offline`.
        #expect(children[2].stop(signal: SIGTERM) == 0)

        let (code, output) = try await runToEnd("location-broadcaster", ["status", "--all", "--broker", broker.address],
                                                logDirectory: broker.directory, timeoutS: 30)
        #expect(code == 0, "\(output)")
        func row(_ drone: String) -> [String] {
            output.split(separator: "\n").first { $0.hasPrefix(drone + " ") }
                .map { $0.split(separator: " ").map(String.init) }
                ?? []
        }
        #expect(output.contains("quadcopter fleet: 2 drones"), "\(output)")
        // DRONE link ctrl nav log ACTIVITY: no drone-link or logger runs, so those are `?` after the wait, and the
        // controllers, which have had no navdata, do not know whether their drones fly.
        #expect(Array(row("fleet1").prefix(6)) == ["fleet1", "?", "on", "on", "?", "unknown"], "\(output)")
        #expect(Array(row("fleet2").prefix(6)) == ["fleet2", "?", "on", "OFF", "?", "unknown"], "\(output)")
    }
}

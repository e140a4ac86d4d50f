import Foundation
import ProcessSupport
import Testing

/// Two instances of every broker client, default client ids, one private broker: the broker drops the older of two
/// clients with one id, so a shared default id shows as "disconnected" in a child's log and "already connected"
/// in mosquitto's.
@Suite("two instances of each service and tool", .offPool,
       .serialized, .enabled(if: TestEnvironment.available("mosquitto")))
struct TwoInstancesTests {
    static let commands: [(String, [String])] = [
        ("navigator", ["run"]), ("drone-controller", []), ("drone-link", []),
        ("telemetry-logger", ["record"]), ("telemetry-logger", ["tail"]),
        ("location-broadcaster", ["claim"]), ("location-broadcaster", ["status", "--watch"]),
    ]

    @Test("neither of two default-id instances is disconnected", arguments: commands.indices)
    func twoOfEach(_ index: Int) async throws {
        let (name, sub) = Self.commands[index]
        let broker = try BrokerProcess()
        defer { try? FileManager.default.removeItem(at: broker.directory) }
        let logDir = name == "telemetry-logger" && sub == ["record"] ? ["--dir", broker.directory.path] : []
        let children = try (0..<2).map { _ in
            try ChildProcess(executable: TestEnvironment.executable(name).path,
                             arguments: sub + ["--broker", broker.address, "--drone", "twice1"] + logDir,
                             logDirectory: broker.directory)
        }
        defer { for child in children { child.stop(signal: SIGKILL) } }
        // Both connected first (the broker says so): on a loaded machine 4 s from the spawn could end before either
        // had, and prove nothing. Then a clash shows within a reconnect or two (libmosquitto retries after 1 s).
        try await eventually(timeout: TestEnvironment.readinessTimeout,
                             "both connected\n\(broker.child?.output() ?? "")") {
            (broker.child?.output() ?? "").components(separatedBy: "New client connected").count - 1 >= 2
        }
        try await Task.sleep(for: .seconds(4))
        let brokerLog = broker.child?.output() ?? ""
        #expect(!brokerLog.contains("already connected"), "\(brokerLog)")
        for child in children {
            #expect(child.isRunning, "\(name) \(sub): \(child.output())")
            #expect(!child.output().contains("disconnected"), "\(name) \(sub): \(child.output())")
        }
    }
}

import ProcessSupport
import Foundation
import Navigation

/// Benchmark 2 (and 5): while the drone flies to a far target, the interval between AT datagrams as they arrive
/// at the drone, for `seconds`; meanwhile CPU and RSS of every process of the system. With `load`, a second
/// publisher process sends 10k msg/s of telemetry through the same broker (with its own subscriber).
struct CadenceBench {
    let stack: ServiceStack
    let broker: Broker
    let workDirectory: String
    let seconds: Int
    static let periodNs: Int64 = 30_000_000

    struct Result: Sendable {
        var intervals: Distribution
        var datagrams: Int
        var footprint: [ProcessFootprint.Row]
        var load: [String: Double]
        var activityAtEnd: String
    }

    func run(targetBearingDeg: Double, load: Bool) async throws -> Result {
        // Far enough that it is still flying after `seconds` at ~1 m/s, inside the 200 m geofence.
        let target = Geodesy.destination(from: stack.drone.home, bearingDeg: targetBearingDeg, distanceM: 150)
        try stack.sendTarget(target)
        try await Task.sleep(for: .seconds(2))
        var generator: ChildProcess?
        if load {
            generator = try ChildProcess(
                Tools.selfExecutable,
                ["loadgen", "--port", "\(broker.port)", "--drone", "loadgen", "--rate", "10000",
                 "--count", "\(10_000 * (seconds + 3))", "--subscribe"],
                name: "loadgen-cadence", logDirectory: workDirectory)
            try await Task.sleep(for: .seconds(1))
        }
        var footprint = ProcessFootprint()
        footprint.begin([("mosquitto", broker.process.pid)] + stack.services.map { ($0.name, $0.pid) }
                        + (generator.map { [("load generator", $0.pid)] } ?? []))
        stack.drone.startRecording()
        for _ in 0..<seconds {
            try await Task.sleep(for: .seconds(1))
            footprint.sample()
            try stack.checkAlive()
        }
        let times = stack.drone.stopRecording()
        let rows = footprint.finish()
        var loadSummary: [String: Double] = [:]
        if let generator {
            _ = generator.waitForExit(timeout: .seconds(15))
            generator.stop()
            loadSummary = LoadGenerator.summary(from: generator.log())
        }
        let intervals = zip(times.dropFirst(), times).map { $0 - $1 }
        return Result(intervals: Distribution(intervals), datagrams: times.count, footprint: rows, load: loadSummary,
                      activityAtEnd: stack.activity.map { "\($0)" } ?? "unknown")
    }
}

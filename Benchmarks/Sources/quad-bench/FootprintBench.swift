import BrokerNodes
import Foundation
import Navigation
import ProcessSupport
import QuadMQTT
import QuadProtocol
import Synchronization

/// The board's footprint (issue 17, "Scale down"): per board service the start-up time (exec → its retained
/// `online` presence seen by a subscriber), then RSS, PSS and CPU in a 30 Hz flight with the services and the broker
/// free, then the same processes pinned to CPU 0 (`taskset -a -p -c 0`, every thread; threads started later inherit
/// it), with target → PCMD measured beside each; then mavlink-link in a MAVLink flight of its own.
struct FootprintBench {
    let binDir: String
    let broker: Broker
    let workDirectory: String
    let seconds: Int
    let targets: Int
    /// Starts per service for the start-up figure.
    let starts: Int
    static let boardServices = ["drone-link", "navigator", "drone-controller", "mavlink-link"]
    static let rssGoalKiB = 12 * 1024
    static let cpuGoalPercent = 1.0
    static let startupGoalNs: Int64 = 150_000_000
    static let pinnedP99GoalNs: Int64 = 5_000_000

    struct Result: Sendable {
        /// Service → exec → `online` seen, one sample per start.
        var startup: [String: Distribution]
        var startupFailures: [String: Int]
        var free: [ProcessFootprint.Row]
        var pinned: [ProcessFootprint.Row]
        var mavlink: [ProcessFootprint.Row]
        var freeLatency: CommandLatencyBench.Result
        var pinnedLatency: CommandLatencyBench.Result
        var loadAtStart: String
        var loadAtEnd: String
    }

    func run() async throws -> Result {
        let loadAtStart = MachineInfo.loadAverage()
        QuadBench.say("footprint: start-up, \(starts) starts of each board service")
        let (startup, failures) = try await measureStartup()
        let stack = try await ServiceStack(binDir: binDir, broker: broker, workDirectory: workDirectory)
        var free: [ProcessFootprint.Row] = []
        var pinned: [ProcessFootprint.Row] = []
        let freeLatency: CommandLatencyBench.Result
        let pinnedLatency: CommandLatencyBench.Result
        do {
            try await stack.takeOff()
            QuadBench.say("footprint: free flight, \(seconds) s")
            free = try await flight(stack, bearingDeg: 0)
            QuadBench.say("footprint: command latency, free, \(targets) targets")
            freeLatency = try await CommandLatencyBench(stack: stack, port: broker.port, targets: targets).run()
            for pid in [broker.process.pid] + stack.services.map(\.pid) {
                try Self.pinToCPU0(pid, logDirectory: workDirectory)
            }
            QuadBench.say("footprint: broker and services pinned to CPU 0; flight, \(seconds) s")
            pinned = try await flight(stack, bearingDeg: 180)
            QuadBench.say("footprint: command latency, pinned, \(targets) targets")
            pinnedLatency = try await CommandLatencyBench(stack: stack, port: broker.port, targets: targets).run()
            await stack.land()
        } catch {
            stack.stop()
            throw error
        }
        stack.stop()
        // The broker stays pinned for the MAVLink flight; mavlink-link's stack is not pinned.
        let directory = workDirectory + "/footprint-mavlink"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let mavlinkStack = try await ServiceStack(binDir: binDir, broker: broker, workDirectory: directory,
            link: .mavlink)
        defer { mavlinkStack.stop() }
        try await mavlinkStack.takeOff()
        QuadBench.say("footprint: MAVLink flight, \(seconds) s")
        let mavlink = try await flight(mavlinkStack, bearingDeg: 0)
        await mavlinkStack.land()
        return Result(startup: startup, startupFailures: failures, free: free, pinned: pinned, mavlink: mavlink,
                      freeLatency: freeLatency, pinnedLatency: pinnedLatency, loadAtStart: loadAtStart,
                      loadAtEnd: MachineInfo.loadAverage())
    }

    /// Flies to a target 150 m away and samples every process of the stack (and the broker) once a second.
    private func flight(_ stack: ServiceStack, bearingDeg: Double) async throws -> [ProcessFootprint.Row] {
        try stack.sendTarget(Geodesy.destination(from: stack.drone.snapshot.position, bearingDeg: bearingDeg,
                                                 distanceM: 150))
        try await Task.sleep(for: .seconds(2))
        var footprint = ProcessFootprint()
        footprint.begin([("mosquitto", broker.process.pid)] + stack.services.map { ($0.name, $0.pid) })
        for _ in 0..<seconds {
            try await Task.sleep(for: .seconds(1))
            footprint.sample()
            try stack.checkAlive()
        }
        return footprint.finish()
    }

    /// taskset's log goes to the bench's work directory (it used to go to the system's, and stay there).
    static func pinToCPU0(_ pid: pid_t, logDirectory: String) throws {
        let taskset = try ChildProcess(Tools.path("taskset"), ["-a", "-p", "-c", "0", "\(pid)"],
                                       name: "taskset-\(pid)", logDirectory: logDirectory)
        _ = taskset.waitForExit(timeout: .seconds(10))
        // Every thread must be on CPU 0, or the "pinned" figures would be the free ones.
        for thread in (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? [] {
            let status = (try? String(contentsOfFile: "/proc/\(pid)/task/\(thread)/status", encoding: .utf8)) ?? ""
            guard status.contains("Cpus_allowed_list:\t0\n") else {
                throw PinFailure(description: "pid \(pid) thread \(thread) not pinned to CPU 0: \(taskset.log())")
            }
        }
    }

    struct PinFailure: Error, CustomStringConvertible { var description: String }

    /// exec → the retained `online` status with the child's pid, seen by a subscriber of `quad/+/status/#`. Each
    /// start uses a drone id of its own, so no retained status of an earlier start can answer; the services take
    /// turns, so the machine's load spreads over all of them.
    private func measureStartup() async throws -> ([String: Distribution], [String: Int]) {
        let client = try await BenchClient.connect(port: broker.port, clientId: "bench-startup")
        defer { client.shutdown() }
        let online = Mutex<[Int32: Int64]>([:])  // pid → when its `online` arrived
        let stream = try client.subscribe(Topics.allStatusFilter, qos: 1, bufferLimit: 4096)
        let reader = Task {
            for await message in stream {
                let arrivedNs = BenchClock.monotonicNs()
                guard let status = try? ServiceStatus(json: message.payload), status.state == .online else { continue }
                online.withLock { if $0[status.pid] == nil { $0[status.pid] = arrivedNs } }
            }
        }
        defer { reader.cancel() }
        try await Task.sleep(for: .milliseconds(300))
        var samples: [String: [Int64]] = [:]
        var failures: [String: Int] = [:]
        let directory = workDirectory + "/startup"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        for round in 0..<starts {
            for service in Self.boardServices {
                let drone = "startup-\(round)"
                var arguments = ["--broker", broker.address, "--drone", drone]
                switch service {
                case "drone-link":
                    // No drone answers: the link keeps trying; presence does not wait for it.
                    arguments += ["--address", "127.0.0.1", "--at-port", "\(try freeLoopbackPort(udp: true))",
                                  "--navdata-port", "\(try freeLoopbackPort(udp: true))"]
                case "mavlink-link": arguments += ["--listen", "127.0.0.1:\(try freeLoopbackPort(udp: true))"]
                default: break
                }
                let startNs = BenchClock.monotonicNs()
                let child = try ChildProcess("\(binDir)/\(service)", arguments, name: "\(service)-\(round)",
                                             logDirectory: directory)
                let seen = await BenchClient.waitUntil(timeoutS: 5) { online.withLock { $0[child.pid] != nil } }
                if seen, let arrivedNs = online.withLock({ $0[child.pid] }) {
                    samples[service, default: []].append(arrivedNs - startNs)
                } else {
                    failures[service, default: 0] += 1
                }
                child.stop()
                // Clear the retained status it left, so the broker's retained store does not grow with the starts.
                _ = try? client.publish(topic: Topics.status(service: service, drone: DroneID(rawValue: drone)!),
                                    payload: [], qos: 1, retain: true)
                try await Task.sleep(for: .milliseconds(200))
            }
        }
        return (samples.mapValues { Distribution($0) }, failures)
    }
}

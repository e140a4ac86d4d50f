import FlightLog
import Navigation
import Foundation
import ProcessSupport
import QuadMQTT
import QuadProtocol
import Synchronization

/// The fleet benchmark: on one broker or one cluster, 5 drones flying for real (each its own FakeDrone + drone-link +
/// navigator + drone-controller under its own drone id), one `telemetry-logger record` recording every drone, and the
/// fleet generator adding N synthetic drones' traffic at a real drone's rates (measured from the first real drone
/// before the steps). At each N: what the generator sent on recorded topics against what the logger's files hold,
/// and target → PCMD of all 5 real drones at once (`CommandLatencyBench` on each). On a cluster the board's services
/// take the nodes A,B,C and the ground side (pilot, observers, logger, generator) B,C,A (`StackBrokers`). The steps
/// stop after the first N that loses a message; with `stopOnMissedP99` also after the first that misses the p99
/// goal; and no step starts, nor target goes out, past `deadlineNs`.
struct FleetBench {
    let binDir: String
    /// "Mosquitto", "3-node RabbitMQ cluster": the report's broker column.
    let label: String
    let brokers: StackBrokers
    let workDirectory: String
    let steps: [Int]
    let realDrones: Int
    /// Targets per real drone per step.
    let targets: Int
    let generatorSeconds: Double
    /// Cluster runs stop at a missed p99 too: their steps are slower, and the time is the cluster's budget.
    var stopOnMissedP99 = false
    /// Seconds between the logger's start and the generator's: its subscriptions must be in place (on NATS each QoS 1
    /// filter is a JetStream consumer the cluster creates first).
    var loggerWarmupS = 1.5
    /// Seconds between the generator's end and the logger's stop: what is still on its way then counts as lost.
    var settleS = 1.0
    /// Monotonic instant past which no step starts and no target goes out (a cluster's time budget); nil: none.
    var deadlineNs: Int64?
    static let p99GoalNs: Int64 = 5_000_000

    struct Step: Sendable {
        var syntheticDrones: Int
        var offeredMsgPerS: Int
        var sentRecorded: Int
        var logged: Int
        var loggerDropped: Int?
        var loggerLost: Int?
        /// Publishes the generator's client refused (not connected, or too many QoS 1 awaiting their PUBACK): not
        /// in `sentRecorded`, yet the fleet's traffic all the same — a broker that cannot take the load is a loss.
        var generatorFailed = 0
        var latency: Distribution
        var timeouts: Int
        var loadAverage: String
        var lossless: Bool {
            (syntheticDrones == 0 || sentRecorded > 0) && logged == sentRecorded && loggerDropped ?? 0 == 0
                && generatorFailed == 0
        }
        /// A step the time budget left without a single target measured meets nothing.
        var met: Bool {
            lossless && latency.count > 0 && latency.percentileNs(99) <= FleetBench.p99GoalNs && timeouts == 0
        }
    }

    struct Result: Sendable {
        var broker: String
        var steps: [Step]
        /// Why the steps ended before the last one (a loss, a missed p99, the time budget); nil: all were run.
        var stoppedBecause: String?
        /// What one real drone published, per topic path below `quad/<id>/` (messages/s): the generator's rates.
        var realRates: [(path: String, hz: Double)]
        var loadAtStart = ""
        var loadAtEnd = ""
        /// The largest N meeting both conditions.
        var largestMet: Int? { steps.filter { $0.met && $0.syntheticDrones > 0 }.map(\.syntheticDrones).max() }
        /// The largest N at which the logger lost nothing, whatever the latency.
        var largestLossless: Int? {
            steps.filter { $0.lossless && $0.syntheticDrones > 0 }.map(\.syntheticDrones).max()
        }
    }

    func run() async throws -> Result {
        var stacks: [ServiceStack] = []
        defer { for stack in stacks { stack.stop() } }
        for index in 1...realDrones {
            let directory = "\(workDirectory)/fleet-real-\(index)"
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            let id = DroneID(rawValue: "fleet-\(index)")!
            stacks.append(try await ServiceStack(binDir: binDir, brokers: brokers, workDirectory: directory,
                                                 droneId: id, logger: false))
        }
        QuadBench.say("fleet on \(label): \(realDrones) real drones' services up; taking off")
        for stack in stacks { try await stack.takeOff() }
        // Flying, not hovering, while the rates are measured: the navigator publishes only with a target.
        for stack in stacks {
            try stack.sendTarget(Geodesy.destination(from: stack.drone.home, bearingDeg: 45, distanceM: 150))
        }
        try await Task.sleep(for: .seconds(2))
        let streams = try await Self.measureStreams(ports: brokers.pilotPorts, drone: stacks[0].droneId, seconds: 5)
        QuadBench.say("fleet: one real drone publishes " + streams.map { "\($0.path) \(Units.fixed($0.rateHz, 1)) Hz" }
            .joined(separator: ", "))
        var done: [Step] = []
        var stoppedBecause: String?
        var lastStepNs: Int64 = 0
        for count in steps {
            // A step takes about as long as the one before: start it only if it can end within the budget.
            if let deadlineNs, BenchClock.monotonicNs() + lastStepNs > deadlineNs {
                stoppedBecause = "time budget reached before N = \(count)"
                break
            }
            let startNs = BenchClock.monotonicNs()
            let step = try await runStep(syntheticDrones: count, streams: streams, stacks: stacks)
            lastStepNs = BenchClock.monotonicNs() - startNs
            done.append(step)
            QuadBench.say(
                "fleet on \(label): N=\(count): sent \(step.sentRecorded) recorded-topic messages, "
                          + "logged \(step.logged), "
                          + "logger dropped \(step.loggerDropped.map(String.init) ?? "?"), generator refused "
                          + "\(step.generatorFailed); target → PCMD p50 "
                          + "\(Units.auto(step.latency.percentileNs(50))) p99 "
                          + "\(Units.auto(step.latency.percentileNs(99))), "
                          + "\(step.timeouts) not seen; load \(step.loadAverage)")
            // On one Mosquitto latency is the machine's load as much as the fleet's: go on past a missed p99, stop at
            // the first loss. On a cluster stop at either. When the real drones alone (N = 0) already miss the p99,
            // no N can meet it: then only a loss stops the steps, to find the largest lossless N.
            if !step.lossless {
                stoppedBecause = "messages lost at N = \(count)"
                break
            }
            let baselineMet = done.first { $0.syntheticDrones == 0 }?.met ?? true
            if stopOnMissedP99, count > 0, !step.met, baselineMet {
                stoppedBecause = "target → PCMD p99 above 5 ms or a target not seen at N = \(count)"
                break
            }
        }
        for stack in stacks { await stack.land() }
        return Result(broker: label, steps: done, stoppedBecause: stoppedBecause,
                      realRates: streams.map { ($0.path, $0.rateHz) })
    }

    private func runStep(syntheticDrones: Int, streams: [FleetGenerator.Stream], stacks: [ServiceStack]) async throws
        -> Step {
        let directory = "\(workDirectory)/fleet-n\(syntheticDrones)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        // A logger per step (its files and counters are this step's); no auto-sync: there is no board logger to ask.
        let logger = try ChildProcess("\(binDir)/telemetry-logger",
                                      ["record", "--broker", brokers.pilotAddress, "--dir", directory, "--no-auto-sync"]
                                          + brokers.serviceFlags,
                                      name: "telemetry-logger", logDirectory: directory)
        try await Task.sleep(for: .seconds(loggerWarmupS))
        let prefix = "n\(syntheticDrones)"
        // N = 0: the 5 real drones alone, the baseline of the latency.
        let generator = syntheticDrones == 0 ? nil : try ChildProcess(
            Tools.selfExecutable,
            ["fleetgen", "--port", brokers.pilotPorts.map(String.init).joined(separator: ","), "--prefix", prefix,
                "--drones", "\(syntheticDrones)",
             "--seconds", "\(generatorSeconds)"] + FleetGenerator.arguments(streams),
            name: "fleetgen", logDirectory: directory)
        try await Task.sleep(for: .seconds(2))
        QuadBench.say("fleet on \(label): N=\(syntheticDrones): \(targets) targets to each real drone at once")
        let results = try await withThrowingTaskGroup(of: CommandLatencyBench.Result.self) { group in
            for stack in stacks {
                group.addTask {
                    try await CommandLatencyBench(stack: stack, observerPorts: brokers.pilotPorts, targets: targets,
                                                  deadlineNs: deadlineNs).run()
                }
            }
            var all: [CommandLatencyBench.Result] = []
            for try await result in group { all.append(result) }
            return all
        }
        let loadAverage = MachineInfo.loadAverage()
        _ = generator?.waitForExit(timeout: .seconds(generatorSeconds + 30))
        generator?.stop()
        let summary = generator.map {
            LoadGenerator.summary(from: $0.log().replacingOccurrences(of: "fleetgen ", with: "loadgen "))
        } ?? [:]
        try await Task.sleep(for: .seconds(settleS))
        logger.stop()  // SIGTERM: drains, flushes and fsyncs; its last line has the final counters
        let counters = Self.finalCounters(logger.log())
        let logged = try Self.countRecords(directory: directory, topicPrefix: "quad/\(prefix)-")
        return Step(syntheticDrones: syntheticDrones, offeredMsgPerS: Int(summary["rate"] ?? 0),
                    sentRecorded: Int(summary["recorded_sent"] ?? 0), logged: logged,
                    loggerDropped: counters["dropped"], loggerLost: counters["lost"],
                    generatorFailed: Int(summary["failed"] ?? 0),
                    latency: Distribution(results.flatMap(\.latencies.sortedNs)),
                    timeouts: results.reduce(0) { $0 + $1.timeouts }, loadAverage: loadAverage)
    }

    /// One real drone's topics for `seconds`: messages per second and the last payload of each path.
    static func measureStreams(ports: [UInt16], drone: DroneID, seconds: Int) async throws -> [FleetGenerator.Stream] {
        let client = try await BenchClient.connect(ports: ports, clientId: "bench-fleet-rates")
        defer { client.shutdown() }
        let seen = Mutex<[String: (count: Int, payload: [UInt8])]>([:])
        let stream = try client.subscribe(Topics.all(drone: drone), qos: 1, bufferLimit: 65536)
        let prefix = "quad/\(drone.rawValue)/"
        let startNs = BenchClock.monotonicNs() + 500_000_000  // retained presence arrives first: not counted
        let reader = Task {
            for await message in stream where message.topic.hasPrefix(prefix) && !message.retain {
                guard BenchClock.monotonicNs() >= startNs else { continue }
                let path = String(message.topic.dropFirst(prefix.count))
                seen.withLock { $0[path] = (($0[path]?.count ?? 0) + 1, message.payload) }
            }
        }
        try await Task.sleep(for: .milliseconds(500 + seconds * 1000))
        reader.cancel()
        // Only what the drone's services publish (the bench's own targets and commands are not fleet traffic).
        let published = ["telemetry/", "flight/"]
        let measured = seen.withLock { $0 }.filter { path, _ in published.contains { path.hasPrefix($0) } }
            .sorted { $0.key < $1.key }
            .map { FleetGenerator.Stream(path: $0.key, rateHz: Double($0.value.count) / Double(seconds),
                                         payload: $0.value.payload) }
        // Presence: each service re-announces every `reannounceIntervalS` (5 s), too rare to count in 5 s.
        let presence = ["drone-link", "navigator", "drone-controller"].map { service in
            FleetGenerator.Stream(path: "status/\(service)", rateHz: 1 / ServiceStatus.reannounceIntervalS,
                                  payload: ServiceStatus(state: .online, service: service, version: "0.1.0",
                                                         startedAt: 0, pid: 1).encodedJSON())
        }
        return measured + presence
    }

    /// `final: records_written=… dropped=… lost=…` from the logger's log.
    static func finalCounters(_ log: String) -> [String: Int] {
        guard let line = log.split(separator: "\n").last(where: { $0.contains("final: ") }) else { return [:] }
        var values: [String: Int] = [:]
        for pair in line.split(separator: " ") {
            let parts = pair.split(separator: "=")
            if parts.count == 2, let value = Int(parts[1]) { values[String(parts[0])] = value }
        }
        return values
    }

    /// Non-empty records in the step's .qlog files whose topic starts with `topicPrefix` (FlightLog's reader).
    static func countRecords(directory: String, topicPrefix: String) throws -> Int {
        var count = 0
        for name in try FileManager.default.contentsOfDirectory(atPath: directory) where name.hasSuffix(".qlog") {
            guard let data = FileManager.default.contents(atPath: "\(directory)/\(name)"),
                  let reader = try? LogReader(bytes: [UInt8](data)) else { continue }
            // Empty records: the generator clearing its retained topics after the step.
            for case .record(let record, _) in reader where record.topic.hasPrefix(topicPrefix)
                && !record.payload.isEmpty {
                count += 1
            }
        }
        return count
    }
}

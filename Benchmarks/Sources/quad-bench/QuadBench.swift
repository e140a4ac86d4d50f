import Foundation

/// `quad-bench run [--quick] --bin-dir DIR --repo-root DIR --out FILE [--codec-results FILE]` runs benchmarks
/// 1, 2, 4 and 5 against the release binaries and writes the report (with 3 from package-benchmark's output);
/// `quad-bench mavlink-latency [--quick] --bin-dir DIR --repo-root DIR` runs only benchmark 1's MAVLink path and
/// prints its rows (BENCHMARKS.md untouched); `quad-bench field-latency …` likewise the field layout (deploy/'s two
/// brokers and the bridge, after a one-broker reference run); `quad-bench footprint …` the board footprint and
/// `quad-bench fleet …` the fleet benchmark (one Mosquitto, then a 3-node RabbitMQ and a 3-node NATS cluster)
/// likewise; `quad-bench loadgen …` is the second publisher `run` starts,
/// `quad-bench fleetgen …` the fleet's synthetic drones.
@main
struct QuadBench {
    static func main() async {
        let arguments = CommandLine.arguments.dropFirst()
        do {
            switch arguments.first {
            case "loadgen":
                try await LoadGenerator.parse(arguments.dropFirst()).run()
            case "run":
                let options = try BenchOptions.parse(arguments.dropFirst())
                try await withWorkDirectory { try await run(options, work: $0) }
            case "mavlink-latency":
                let options = try BenchOptions.parse(arguments.dropFirst())
                try await withWorkDirectory { try await mavlinkLatencyOnly(options, work: $0) }
            case "field-latency":
                let options = try BenchOptions.parse(arguments.dropFirst())
                try await withWorkDirectory { try await fieldLatencyOnly(options, work: $0) }
            case "footprint":
                let options = try BenchOptions.parse(arguments.dropFirst())
                try await withWorkDirectory { try await footprintOnly(options, work: $0) }
            case "fleet":
                let options = try BenchOptions.parse(arguments.dropFirst())
                try await withWorkDirectory { try await fleetOnly(options, work: $0) }
            case "wrap":
                // The report's line wrapping applied to a Markdown file in place (BENCHMARKS.md's hand-kept part).
                for path in arguments.dropFirst() {
                    let text = try String(contentsOfFile: path, encoding: .utf8)
                    try MarkdownWrap.wrapped(text).write(toFile: path, atomically: true, encoding: .utf8)
                }
            case "fleetgen":
                try await FleetGenerator.parse(arguments.dropFirst()).run()
            default:
                print(
                    """
                        usage: quad-bench run [--quick] [--bin-dir DIR] [--repo-root DIR] [--out FILE] \
                        [--codec-results FILE]
                        """)
                print("       quad-bench mavlink-latency [--quick] [--bin-dir DIR] [--repo-root DIR]")
                print("       quad-bench field-latency [--quick] [--bin-dir DIR] [--repo-root DIR]")
                print("       quad-bench footprint [--quick] [--bin-dir DIR] [--repo-root DIR]")
                print("       quad-bench fleet [--quick] [--bin-dir DIR] [--repo-root DIR]")
                print("       quad-bench fleetgen --port N[,N…] --prefix P --drones N --seconds S "
                      + "--topic PATH=HZ=HEX…")
                print("       quad-bench loadgen --port N --drone ID --rate MSG_PER_S --count N [--subscribe]")
                print("       quad-bench wrap FILE.md…")
                exit(2)
            }
        } catch {
            FileHandle.standardError.write(Data("quad-bench: \(error)\n".utf8))
            exit(1)
        }
    }

    /// The run's scratch directory (brokers' configs and logs, the services' logs, the clusters' data): removed
    /// when the run ends well, kept and named when it fails (its logs say why).
    static func withWorkDirectory(_ body: @Sendable (String) async throws -> Void) async throws {
        let work = NSTemporaryDirectory() + "quad-bench-\(getpid())"
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        say("work directory \(work)")
        do {
            try await body(work)
        } catch {
            say("work directory kept for its logs: \(work)")
            throw error
        }
        try? FileManager.default.removeItem(atPath: work)
    }

    static func run(_ options: BenchOptions, work: String) async throws {
        var report = Report(options: options, machine: MachineInfo.collect(workDirectory: work,
            repoRoot: options.repoRoot))
        let codecMarkdown = options.codecResults.flatMap { try? String(contentsOfFile: $0, encoding: .utf8) }
        report.codec = try CodecFigures(benchmarkMarkdown: codecMarkdown)

        let broker = try Broker(repoRoot: options.repoRoot, workDirectory: work)
        defer { broker.stop() }
        say("broker on \(broker.address); broker hop floor, \(options.targets) messages")
        report.hop = try await BrokerHopBench(port: broker.port, messages: options.targets).run()

        let stack = try await ServiceStack(binDir: options.binDir, broker: broker, workDirectory: work)
        do {
            say("services up; taking off")
            try await stack.takeOff()
            say("command latency, \(options.targets) targets")
            report.latency = try await CommandLatencyBench(stack: stack, port: broker.port, targets: options.targets)
                .run()
            let cadence = CadenceBench(stack: stack, broker: broker, workDirectory: work,
                seconds: options.cadenceSeconds)
            say("PCMD cadence, idle broker, \(options.cadenceSeconds) s")
            report.cadenceIdle = try await cadence.run(targetBearingDeg: 0, load: false)
            say("PCMD cadence, broker under 10k msg/s, \(options.cadenceSeconds) s")
            report.cadenceLoaded = try await cadence.run(targetBearingDeg: 180, load: true)
            await stack.land()
        } catch {
            stack.stop()
            throw error
        }
        stack.stop()
        report.mavlinkLatency = try await mavlinkLatency(options, broker: broker, work: work)
        report.fieldPlain = try await fieldLatency(options, work: work, tls: false)
        report.field = try await fieldLatency(options, work: work, tls: true)

        report.footprint = try await footprint(options, work: work)
        report.fleet = try await fleet(options, work: work)

        say("logger ingest at \(options.ingestRates.map(String.init).joined(separator: ", ")) msg/s")
        report.ingest = try await IngestBench(binDir: options.binDir, broker: broker, workDirectory: work,
                                              rates: options.ingestRates, seconds: options.ingestSeconds).run()
        // The hand-kept part (`## Earlier runs` to the end) stays: a run rewrites only what it measured.
        let kept = (try? String(contentsOfFile: options.out, encoding: .utf8)).flatMap(Self.handKeptTail) ?? ""
        try MarkdownWrap.wrapped(report.markdown() + kept).write(toFile: options.out, atomically: true,
                                                                  encoding: .utf8)
        say("wrote \(options.out)")
    }

    static let handKeptHeading = "## Earlier runs"

    /// `## Earlier runs` to the end of an earlier BENCHMARKS.md, with a blank line before it; nil without one.
    static func handKeptTail(_ text: String) -> String? {
        guard let start = text.range(of: "\n" + handKeptHeading) else { return nil }
        return "\n" + text[start.lowerBound...].drop { $0 == "\n" }
    }

    /// Benchmark 1 through mavlink-link: a stack of its own (navigator, controller, logger, mavlink-link) flying the
    /// bench's MAVLink vehicle on the same broker.
    static func mavlinkLatency(_ options: BenchOptions, broker: Broker, work: String) async throws
        -> CommandLatencyBench.Result {
        let directory = work + "/mavlink"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let stack = try await ServiceStack(binDir: options.binDir, broker: broker, workDirectory: directory,
                                           link: .mavlink)
        defer { stack.stop() }
        say("MAVLink services up; taking off")
        try await stack.takeOff()
        say("command latency through mavlink-link, \(options.targets) targets")
        let bench = CommandLatencyBench(stack: stack, port: broker.port, targets: options.targets, pauseMs: 10...59)
        let result = try await bench.run()
        await stack.land()
        return result
    }

    static func mavlinkLatencyOnly(_ options: BenchOptions, work: String) async throws {
        let broker = try Broker(repoRoot: options.repoRoot, workDirectory: work)
        defer { broker.stop() }
        var report = Report(options: options, machine: MachineInfo.collect(workDirectory: work,
            repoRoot: options.repoRoot))
        report.mavlinkLatency = try await mavlinkLatency(options, broker: broker, work: work)
        print(report.mavlinkRows())
    }

    /// The field layout: deploy/'s two brokers joined by the bridge, the AR.Drone stack on the board's, targets
    /// published on the ground's. First the bridge's own hop (ground → bridge → board, before the services start),
    /// then benchmark 1's targets. `tls`: the radio as shipped (TLS); false: as `--insecure-plain-radio` installs it.
    static func fieldLatency(_ options: BenchOptions, work: String, tls: Bool) async throws -> FieldResult {
        let directory = work + (tls ? "/field-tls" : "/field-plain")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let layout = try FieldLayout(repoRoot: options.repoRoot, workDirectory: directory, tls: tls)
        defer { layout.stop() }
        say("""
            field layout (\(tls ? "TLS" : "plain") radio): ground broker on 127.0.0.1:\(layout.ground.port)\
            \(layout.ground.tlsPort.map { " (TLS \($0))" } ?? ""), board broker on 127.0.0.1:\(layout.board.port); \
            waiting for the bridge
            """)
        try await layout.waitForBridge()
        say("bridge up; ground → bridge → board hop, \(options.targets) messages")
        let hopBench = BrokerHopBench(port: layout.ground.port, messages: options.targets,
            subscriberPort: layout.board.port,
                                      publisherLogin: layout.groundLogins["location-broadcaster"],
                                      subscriberLogin: layout.boardLogins["monitor"],
                                      topic: "quad/drone1/status/location-broadcaster/bench-hop")
        let hop = try await hopBench.run()
        // The other direction, as telemetry goes (QoS 0, `out 0`): a bench client logged in as the navigator (not
        // running yet) publishes on the board, a monitor on the ground receives.
        say("board → bridge → ground hop (QoS 0 telemetry topic), \(options.targets) messages")
        let upBench = BrokerHopBench(port: layout.board.port, messages: options.targets,
            subscriberPort: layout.ground.port,
                                     publisherLogin: layout.boardLogins["navigator"],
                                     subscriberLogin: layout.groundLogins["monitor"],
                                     topic: "quad/drone1/telemetry/navigation", qos: 0)
        let upHop = try await upBench.run()
        let stack = try await ServiceStack(binDir: options.binDir, brokers: layout.stackBrokers,
            workDirectory: directory)
        defer { stack.stop() }
        say("field layout services up; taking off")
        try await stack.takeOff()
        say("field layout command latency, \(options.targets) targets")
        let latency = try await CommandLatencyBench(stack: stack, port: layout.board.port, targets: options.targets)
            .run()
        await stack.land()
        return FieldResult(bridgeHop: hop, upHop: upHop, latency: latency)
    }

    static func fieldLatencyOnly(_ options: BenchOptions, work: String) async throws {
        var report = Report(options: options, machine: MachineInfo.collect(workDirectory: work,
            repoRoot: options.repoRoot))
        let load = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? "?"
        // The one-broker figure beside it, measured in the same minutes (the machine's load changes by the minute).
        let broker = try Broker(repoRoot: options.repoRoot, workDirectory: work)
        do {
            let stack = try await ServiceStack(binDir: options.binDir, broker: broker, workDirectory: work)
            defer { stack.stop() }
            say("one broker (mosquitto.conf): services up; taking off")
            try await stack.takeOff()
            say("one broker: command latency, \(options.targets) targets")
            report.latency = try await CommandLatencyBench(stack: stack, port: broker.port, targets: options.targets)
                .run()
            await stack.land()
        }
        broker.stop()
        // Plain first, then TLS, in the same minutes: the difference is what TLS on the radio adds.
        report.fieldPlain = try await fieldLatency(options, work: work, tls: false)
        report.field = try await fieldLatency(options, work: work, tls: true)
        let loadAfter = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? "?"
        print(report.fieldRows())
        print(
            """
                load average (1/5/15 min) at start: \(load.split(separator: " ").prefix(3).joined(separator: " ")), \
                at end: \(loadAfter.split(separator: " ").prefix(3).joined(separator: " "))
                """)
    }

    /// The board footprint on a broker of its own (the pinned run pins it).
    static func footprint(_ options: BenchOptions, work: String) async throws -> FootprintBench.Result {
        let directory = work + "/footprint"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let broker = try Broker(repoRoot: options.repoRoot, workDirectory: directory)
        defer { broker.stop() }
        return try await FootprintBench(binDir: options.binDir, broker: broker, workDirectory: directory,
                                        seconds: options.footprintSeconds, targets: options.targets,
                                        starts: options.startupStarts).run()
    }

    /// The fleet benchmark on a Mosquitto of its own, then on each cluster (`FleetCluster`).
    static func fleet(_ options: BenchOptions, work: String) async throws -> [FleetRun] {
        let mosquitto = try await fleetOnMosquitto(options, work: work)
        var runs = [FleetRun(broker: FleetRun.mosquitto, result: mosquitto)]
        for cluster in FleetCluster.allCases { runs.append(await fleet(on: cluster, options, work: work)) }
        return runs
    }

    static func fleetOnMosquitto(_ options: BenchOptions, work: String) async throws -> FleetBench.Result {
        let directory = work + "/fleet"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let broker = try Broker(repoRoot: options.repoRoot, workDirectory: directory)
        defer { broker.stop() }
        let load = MachineInfo.loadAverage()
        var result = try await FleetBench(binDir: options.binDir, label: FleetRun.mosquitto,
                                          brokers: StackBrokers(single: broker), workDirectory: directory,
                                          steps: options.fleetSteps, realDrones: 5, targets: options.fleetTargets,
                                          generatorSeconds: options.fleetSeconds).run()
        result.loadAtStart = load
        result.loadAtEnd = MachineInfo.loadAverage()
        return result
    }

    /// The fleet on a cluster booted for it and stopped after it, within `fleetClusterBudgetS` of the boot's start.
    /// A broker not installed, a cluster that does not form or a run that fails is the report's row for it: the
    /// rest of the bench goes on.
    static func fleet(on cluster: FleetCluster, _ options: BenchOptions, work: String) async -> FleetRun {
        if let missing = cluster.missing {
            say("fleet on the \(cluster.label): not run, \(missing)")
            return FleetRun(broker: cluster.label, notRun: "not run: \(missing)")
        }
        let directory = work + "/fleet-\(cluster.rawValue)"
        let deadlineNs = BenchClock.monotonicNs() + Int64(options.fleetClusterBudgetS * 1e9)
        let load = MachineInfo.loadAverage()
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            say("fleet: starting the \(cluster.label)")
            let startedNs = BenchClock.monotonicNs()
            let nodes = try await cluster.start(directory: directory)
            defer { nodes.stop(signal: SIGTERM) }
            let ports = nodes.nodePorts.map(String.init).joined(separator: ", ")
            say("fleet: \(cluster.label) answering MQTT on ports \(ports) "
                + "after \(Units.fixed(Double(BenchClock.monotonicNs() - startedNs) / 1e9, 1)) s")
            var bench = FleetBench(binDir: options.binDir, label: cluster.label, brokers: StackBrokers(cluster: nodes),
                                   workDirectory: directory, steps: options.fleetClusterSteps, realDrones: 5,
                                   targets: options.fleetTargets, generatorSeconds: options.fleetSeconds)
            bench.stopOnMissedP99 = true
            bench.loggerWarmupS = options.fleetClusterWarmupS
            bench.settleS = options.fleetClusterSettleS
            bench.deadlineNs = deadlineNs
            var result = try await bench.run()
            say("fleet on the \(cluster.label): " + (result.stoppedBecause.map { "steps stopped: \($0)" }
                ?? "every step run"))
            result.loadAtStart = load
            result.loadAtEnd = MachineInfo.loadAverage()
            return FleetRun(broker: cluster.label, result: result)
        } catch {
            say("fleet on the \(cluster.label) failed: \(error)")
            // One line in a table cell: the error's first 300 characters, no newline or pipe.
            let reason = String(String(describing: error).prefix(300).map { "\n|".contains($0) ? " " : $0 })
            return FleetRun(broker: cluster.label, notRun: "failed: \(reason)")
        }
    }

    static func footprintOnly(_ options: BenchOptions, work: String) async throws {
        var report = Report(options: options, machine: MachineInfo.collect(workDirectory: work,
            repoRoot: options.repoRoot))
        report.footprint = try await footprint(options, work: work)
        print(report.footprintRows())
    }

    static func fleetOnly(_ options: BenchOptions, work: String) async throws {
        var report = Report(options: options, machine: MachineInfo.collect(workDirectory: work,
            repoRoot: options.repoRoot))
        report.fleet = try await fleet(options, work: work)
        print(report.fleetSummaryRows())
        print(report.fleetRows())
    }

    static func say(_ line: String) {
        print("quad-bench: \(line)")
        fflush(nil)  // all streams; avoids touching the global `stdout`
    }
}

/// `quad-bench run …` and `quad-bench loadgen …` flags (plain parsing: the bench has few).
struct BenchOptions {
    var binDir = "../.build/release"
    var repoRoot = ".."
    var out = "../BENCHMARKS.md"
    var codecResults: String?
    var quick = false
    var command = "make bench"

    struct Invalid: Error, CustomStringConvertible {
        var description: String
    }

    static func parse(_ arguments: ArraySlice<String>) throws -> BenchOptions {
        var options = BenchOptions()
        var rest = arguments
        while let flag = rest.popFirst() {
            if flag == "--quick" { options.quick = true; continue }
            guard let value = rest.popFirst() else { throw Invalid(description: "\(flag) needs a value") }
            switch flag {
            case "--bin-dir": options.binDir = value
            case "--repo-root": options.repoRoot = value
            case "--out": options.out = value
            case "--codec-results": options.codecResults = value
            case "--command": options.command = value
            default: throw Invalid(description: "unknown flag \(flag)")
            }
        }
        return options
    }

    /// Figures the run is sized by; `--quick` shortens everything (the report says so).
    var targets: Int { quick ? 300 : 1000 }
    var cadenceSeconds: Int { quick ? 15 : 60 }
    var ingestSeconds: Int { quick ? 2 : 3 }
    var ingestRates: [Int] { [1_000, 5_000, 10_000, 20_000, 40_000, 80_000, 160_000] }
    /// Board footprint: flight window per run (free, pinned, MAVLink), and starts per service for start-up.
    var footprintSeconds: Int { quick ? 15 : 30 }
    var startupStarts: Int { quick ? 3 : 7 }
    /// Fleet: synthetic drones per step (0: the real drones alone, the latency's baseline), targets per real drone per
    /// step, generator run per step.
    var fleetSteps: [Int] { [0, 25, 50, 100, 150, 200, 300, 400, 500] }
    /// On the 3-node clusters: smaller steps, and a time budget per cluster from its boot (steps stop at a missed
    /// p99 there too); the steps then end, the drones land and the nodes stop within ~8 minutes.
    var fleetClusterSteps: [Int] { quick ? [0, 10, 25, 50, 100] : [0, 10, 25, 50, 100, 150, 200, 300] }
    var fleetClusterBudgetS: Double { quick ? 210 : 420 }
    /// Seconds from a cluster step's logger start to its generator's (Mosquitto: 1.5 s), and from the generator's end
    /// to the logger's stop (Mosquitto: 1 s): a cluster creates subscriptions and drains its queues later.
    var fleetClusterWarmupS: Double { 4 }
    var fleetClusterSettleS: Double { 3 }
    var fleetTargets: Int { quick ? 100 : 200 }
    var fleetSeconds: Double { quick ? 10 : 14 }
}

extension LoadGenerator {
    static func parse(_ arguments: ArraySlice<String>) throws -> LoadGenerator {
        var generator = LoadGenerator(port: 1883, drone: "loadgen", rate: 10_000, count: 10_000, subscribe: false)
        var rest = arguments
        while let flag = rest.popFirst() {
            if flag == "--subscribe" { generator.subscribe = true; continue }
            guard let value = rest.popFirst() else { throw BenchOptions.Invalid(description: "\(flag) needs a value") }
            switch flag {
            case "--port": generator.port = UInt16(value) ?? 0
            case "--drone": generator.drone = value
            case "--rate": generator.rate = max(1, Int(value) ?? 1)
            case "--count": generator.count = max(0, Int(value) ?? 0)
            default: throw BenchOptions.Invalid(description: "unknown flag \(flag)")
            }
        }
        return generator
    }
}

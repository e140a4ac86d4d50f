import Benchmark
import CodecCompare

// Encode + decode of every bus message with the project's binary codec, Foundation's JSONEncoder/JSONDecoder and
// NSKeyedArchiver (objc.io's NSSecureCoding). 1000 round trips per sample: the reported time is per round trip.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .mallocCountTotal],
        timeUnits: .nanoseconds,
        warmupIterations: 3,
        scalingFactor: .kilo,
        maxDuration: .seconds(1),
        maxIterations: 10_000)

    // Issue 38: one plan through 20 keep-out zones of 50 vertices (≤ 20 ms), the graph built once when the airspace
    // is loaded (its own row).
    let planning = Benchmark.Configuration(metrics: [.wallClock], timeUnits: .microseconds, scalingFactor: .one,
                                           maxDuration: .seconds(3), maxIterations: 200)
    let planner = AirspacePlanning.planner()
    Benchmark("Airspace plan, 20 zones × 50 vertices", configuration: planning) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try planner.plan(from: AirspacePlanning.start, to: AirspacePlanning.goal))
        }
    }
    Benchmark("Airspace planner graph, 20 zones × 50 vertices", configuration: planning) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(AirspacePlanning.planner().nodeCount)
        }
    }

    for codecCase in CodecCase.all {
        Benchmark(codecCase.name) { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(try codecCase.roundTrip())
            }
        }
    }
}

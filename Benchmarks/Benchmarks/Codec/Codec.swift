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

    for codecCase in CodecCase.all {
        Benchmark(codecCase.name) { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(try codecCase.roundTrip())
            }
        }
    }
}

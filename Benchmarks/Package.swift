// swift-tools-version:6.1
import PackageDescription

// A path dependency's identity is its directory name (the checkout may be called anything).
let root = String(Context.packageDirectory.split(separator: "/").dropLast().last ?? "quadcopter")

// Benchmarks live in their own package so `make test` never builds the benchmark dependencies.
// `make bench` runs both: `swift package benchmark` (codec, ordo-one/benchmark) and `quad-bench` (the services).
let package = Package(
    name: "quadcopter-benchmarks",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
    ],
    targets: [
        // The codec comparison (binary vs JSONEncoder vs NSKeyedArchiver), shared by the benchmark and quad-bench.
        .target(
            name: "CodecCompare",
            dependencies: [.product(name: "QuadProtocol", package: root)],
            path: "Sources/CodecCompare"
        ),
        // `swift package benchmark` finds its targets under Benchmarks/<name>/.
        .executableTarget(
            name: "Codec",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                "CodecCompare",
                // One row beside the codecs: the airspace planner (issue 38's ≤ 20 ms for 20 zones of 50 vertices).
                .product(name: "Airspace", package: root),
                .product(name: "Navigation", package: root),
            ],
            path: "Benchmarks/Codec",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "quad-bench",
            dependencies: [
                .product(name: "QuadProtocol", package: root),
                .product(name: "QuadMQTT", package: root),
                .product(name: "ARDrone", package: root),
                .product(name: "DroneSimulation", package: root),
                .product(name: "MAVLink", package: root),
                .product(name: "MAVLinkSimulation", package: root),
                .product(name: "ProcessSupport", package: root),
                .product(name: "ServiceThreads", package: root),
                // The fleet benchmark's RabbitMQ and NATS clusters, started as the integration tests start them.
                .product(name: "BrokerNodes", package: root),
                .product(name: "Navigation", package: root),
                .product(name: "FlightLog", package: root),
                .product(name: "Logging", package: "swift-log"),
                "CodecCompare",
            ],
            path: "Sources/quad-bench"
        ),
    ]
)

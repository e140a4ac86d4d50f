// swift-tools-version:6.0
import PackageDescription

// Library targets live in Shared/ by layer, the lowest first: Leaf/ (imports nothing of ours but Leaf), Core/ (pure: no
// I/O, no clock read), IO/, Kits/ (each service's behaviour); a module imports only its own layer and those below
// (RepositoryTests' LayerTests, which names the one exception). Executables live in Services/, tests in Tests/, and the
// modules only tests and quad-bench link (ProcessSupport, BrokerNodes, InMemoryMQTT) in Tests/Support/. The executables
// perform what the pure targets decide.

let argumentParser = Target.Dependency.product(name: "ArgumentParser", package: "swift-argument-parser")
let logging = Target.Dependency.product(name: "Logging", package: "swift-log")
let lifecycle = Target.Dependency.product(name: "ServiceLifecycle", package: "swift-service-lifecycle")

/// What every service executable and every service Kit may import.
let serviceBase: [Target.Dependency] = [
    "QuadService", "QuadProtocol", "QuadMQTT", "CommandLineSupport", argumentParser, logging, lifecycle,
]

// @MainActor: Swift 6.0's manifests isolate their globals to the main actor (the board build's swiftlang 6.0.3).
@MainActor
func service(_ name: String, _ deps: [Target.Dependency]) -> Target {
    .executableTarget(name: name, dependencies: serviceBase + deps, path: "Services/\(name)")
}

// A service's behaviour (commands, options, effects, glue): Shared/Kits/<Name>Kit, imported by its executable and by
// Tests/<Name>KitTests, which run it over the in-memory broker.
@MainActor
func kit(_ name: String, _ deps: [Target.Dependency]) -> Target {
    .target(name: name, dependencies: serviceBase + deps, path: "Shared/Kits/\(name)")
}

// Built and tested on Linux only (Debian/Ubuntu, Swift 6.3): the I/O code imports Glibc, so no Apple platform is
// declared.
let package = Package(
    name: "quadcopter",
    products: [
        .executable(name: "location-broadcaster", targets: ["location-broadcaster"]),
        .executable(name: "navigator", targets: ["navigator"]),
        .executable(name: "drone-controller", targets: ["drone-controller"]),
        .executable(name: "drone-link", targets: ["drone-link"]),
        .executable(name: "mavlink-link", targets: ["mavlink-link"]),
        .executable(name: "telemetry-logger", targets: ["telemetry-logger"]),
        .executable(name: "drone-sim", targets: ["drone-sim"]),
        // For the separate Benchmarks/ package (it depends on this one by path).
        .library(name: "QuadProtocol", targets: ["QuadProtocol"]),
        .library(name: "QuadMQTT", targets: ["QuadMQTT"]),
        .library(name: "ARDrone", targets: ["ARDrone"]),
        .library(name: "MAVLink", targets: ["MAVLink"]),
        .library(name: "MAVLinkSimulation", targets: ["MAVLinkSimulation"]),
        .library(name: "DroneSimulation", targets: ["DroneSimulation"]),
        .library(name: "Navigation", targets: ["Navigation"]),
        // The planner's benchmark (20 keep-out zones of 50 vertices).
        .library(name: "Airspace", targets: ["Airspace"]),
        .library(name: "ProcessSupport", targets: ["ProcessSupport"]),
        .library(name: "ServiceThreads", targets: ["ServiceThreads"]),
        // The fleet benchmark runs on the integration tests' RabbitMQ and NATS clusters.
        .library(name: "BrokerNodes", targets: ["BrokerNodes"]),
        // The fleet benchmark counts what the logger's .qlog files hold.
        .library(name: "FlightLog", targets: ["FlightLog"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CMosquitto",
            path: "Shared/IO/CMosquitto",
            pkgConfig: "libmosquitto",
            providers: [.apt(["libmosquitto-dev"])]
        ),
        // Pure code: no sockets, no files, no clock reads.
        // Text helpers every layer may use (decimal numbers, cleaning untrusted text); depends on nothing.
        .target(name: "TextSupport", path: "Shared/Leaf/TextSupport"),
        // The seedable generator behind the simulator's noise and every property and fuzz test; depends on nothing.
        .target(name: "Randomness", path: "Shared/Leaf/Randomness"),
        // The two clocks (monotonic for durations, wall for stamps) as distinct types; read only by I/O code.
        .target(name: "Clocks", path: "Shared/Leaf/Clocks"),
        // CRC-32 (IEEE: the mission plan's checksum) and CRC-32C (the flight log's records); depends on nothing.
        .target(name: "Checksums", path: "Shared/Leaf/Checksums"),
        // Wire types stamp with `WallInstant`; pure code takes `MonotonicInstant`s for ages (Clocks' types).
        .target(name: "QuadProtocol", dependencies: ["Checksums", "Clocks"], path: "Shared/Leaf/QuadProtocol"),
        .target(name: "ARDrone", dependencies: ["Clocks", "QuadProtocol", logging], path: "Shared/Core/ARDrone"),
        .target(name: "MAVLink", path: "Shared/Leaf/MAVLink"),
        .target(name: "MAVLinkSimulation",
                dependencies: ["Clocks", "DroneSimulation", "MAVLink", "Navigation", "TextSupport"],
                path: "Shared/Core/MAVLinkSimulation"),
        .target(name: "MAVLinkCompanion", dependencies: ["Checksums", "Clocks", "MAVLink", "Mission", "Navigation",
                                                        "QuadProtocol", logging],
                path: "Shared/Core/MAVLinkCompanion"),
        // Geodesy and the solve report: no wire types (the solver that speaks them is NavigatorCore).
        .target(name: "Navigation", dependencies: ["TextSupport"], path: "Shared/Core/Navigation"),
        // The navigator's pure core: Target and positions in, NavigationSolution out.
        // Airspace (issue 38): zones from .plan/GeoJSON/KML, the keep-out and inclusion rules, the path around them.
        .target(name: "Airspace", dependencies: ["Navigation", "QuadProtocol", "TextSupport"],
                path: "Shared/Core/Airspace"),
        // Missions (issue 37): the plan, its parsers and rules, its payloads and the executor (the controller runs it).
        .target(name: "Mission", dependencies: ["Airspace", "Checksums", "Clocks", "Navigation", "QuadProtocol"],
                path: "Shared/Core/Mission"),
        .target(name: "NavigatorCore", dependencies: ["Clocks", "Navigation", "QuadProtocol"],
                path: "Shared/Core/NavigatorCore"),
        .target(name: "FlightControl",
                dependencies: ["Airspace", "Checksums", "Clocks", "Mission", "QuadProtocol", "Navigation", "Randomness",
                               "TextSupport", logging],
                path: "Shared/Core/FlightControl"),
        .target(name: "NetworkEndpoint", path: "Shared/Leaf/NetworkEndpoint"),
        .target(name: "DroneSimulation", dependencies: ["ARDrone", "Clocks", "Navigation", "NetworkEndpoint",
                                                       "Randomness", "TextSupport"],
                path: "Shared/Core/DroneSimulation"),
        .target(
            name: "FlightLog",
            dependencies: ["Checksums", "Clocks", "QuadProtocol", "Navigation", "TextSupport", "Mission"],
            path: "Shared/Core/FlightLog",
            exclude: ["FORMAT.md"]
        ),
        // Flight-log sync between the ground's and the board's loggers: gaps, request/response codec, merge.
        .target(name: "LogSync", dependencies: ["Clocks", "FlightLog", "QuadProtocol"], path: "Shared/Core/LogSync"),
        // gpsd in one place: the socket client, the line stream, reports and fixes (navigator, location-broadcaster).
        .target(name: "GPSD", dependencies: ["Clocks", "QuadProtocol", "NetworkEndpoint", "ServiceThreads"],
                path: "Shared/IO/GPSD"),
        // Imports Mission to turn a route file into a plan: files are read on the ground, the board gets the plan.
        .target(name: "GroundStation",
                dependencies: ["Clocks", "QuadProtocol", "Navigation", "TextSupport", "GPSD", "Mission"],
                path: "Shared/Core/GroundStation"),
        // Option parsing shared by every executable (signed numbers, LAT,LON values).
        .target(name: "CommandLineSupport", dependencies: ["Navigation", "TextSupport", argumentParser],
                path: "Shared/Core/CommandLineSupport"),
        // Test and bench support (spawning and stopping processes by pid); never linked into a service.
        .target(name: "ProcessSupport", path: "Tests/Support/ProcessSupport"),
        // Test and bench support: private RabbitMQ and NATS nodes and 3-node clusters on free 127.0.0.1 ports (never
        // the system's), free ports, the MQTT readiness probe; for IntegrationTests and quad-bench, never a service.
        .target(name: "BrokerNodes", dependencies: ["ProcessSupport"], path: "Tests/Support/BrokerNodes"),
        // I/O edge.
        // The one place where threads are made (`ServiceThread`); depends on nothing.
        .target(name: "ServiceThreads", path: "Shared/IO/ServiceThreads"),
        .target(name: "DatagramIO", dependencies: ["Clocks", "NetworkEndpoint"], path: "Shared/IO/DatagramIO"),
        .target(name: "QuadMQTT", dependencies: ["CMosquitto", "Clocks", "ServiceThreads", logging],
                path: "Shared/IO/QuadMQTT"),
        // The in-memory broker for unit tests of service logic (satisfies `MQTTConnection` like the real client).
        .target(name: "InMemoryMQTT", dependencies: ["QuadMQTT"], path: "Tests/Support/InMemoryMQTT"),
        .target(
            name: "QuadService",
            dependencies: ["QuadMQTT", "QuadProtocol", "Clocks", "DatagramIO", "NetworkEndpoint", "CommandLineSupport",
                           "ServiceThreads", argumentParser, logging, lifecycle],
            path: "Shared/IO/QuadService"
        ),

        // location-broadcaster: the commands, options and glue in a library that unit tests import (over
        // InMemoryMQTT); the executable only wires.
        .target(
            name: "LocationBroadcasterKit",
            dependencies: ["Airspace", "Checksums", "GroundStation", "GPSD", "Mission", "Navigation", "QuadService",
                           "QuadProtocol", "QuadMQTT", "CommandLineSupport", argumentParser, logging, lifecycle],
            path: "Shared/Kits/LocationBroadcasterKit"
        ),
        service("location-broadcaster", ["LocationBroadcasterKit"]),
        // The board services: each executable only starts its Kit's command.
        kit("NavigatorKit", ["Navigation", "NavigatorCore", "GPSD", "TextSupport"]),
        kit("DroneControllerKit", ["Airspace", "Checksums", "FlightControl", "Mission", "Navigation"]),
        // What both vehicle links share: the link thread's run loop, the lifecycle service, the telemetry publisher.
        kit("VehicleLinkKit", ["DatagramIO"]),
        kit("DroneLinkKit", ["ARDrone", "DatagramIO", "NetworkEndpoint", "VehicleLinkKit"]),
        kit("MAVLinkLinkKit", ["MAVLinkCompanion", "DatagramIO", "Mission", "NetworkEndpoint", "VehicleLinkKit"]),
        service("navigator", ["NavigatorKit"]),
        service("drone-controller", ["DroneControllerKit"]),
        service("drone-link", ["DroneLinkKit"]),
        service("mavlink-link", ["MAVLinkLinkKit"]),
        // telemetry-logger: its commands, recorder, sync and file I/O; main.swift only wires.
        kit("TelemetryLoggerKit", ["FlightLog", "LogSync", "TextSupport"]),
        service("telemetry-logger", ["TelemetryLoggerKit"]),
        // The simulator speaks only the drone's UDP protocol: no MQTT, no service lifecycle.
        .target(
            name: "DroneSimKit",
            dependencies: ["DroneSimulation", "MAVLinkSimulation", "ARDrone", "Navigation", "DatagramIO", "Clocks",
                           "CommandLineSupport", argumentParser],
            path: "Shared/Kits/DroneSimKit"
        ),
        .executableTarget(name: "drone-sim", dependencies: ["DroneSimKit"], path: "Services/drone-sim"),

        .testTarget(name: "TextSupportTests", dependencies: ["TextSupport"], path: "Tests/TextSupportTests"),
        // The house rules over the repository's own files (line length, one libmosquitto importer).
        .testTarget(name: "RepositoryTests", path: "Tests/RepositoryTests"),
        .testTarget(name: "ClocksTests", dependencies: ["Clocks"], path: "Tests/ClocksTests"),
        .testTarget(name: "QuadProtocolTests", dependencies: ["Checksums", "QuadProtocol", "Clocks"],
                    path: "Tests/QuadProtocolTests", exclude: ["Fixtures"]),
        .testTarget(name: "ARDroneTests", dependencies: ["ARDrone", "Clocks", "QuadProtocol", "Randomness"],
                    path: "Tests/ARDroneTests", exclude: ["Fixtures"]),
        .testTarget(name: "MAVLinkTests", dependencies: ["MAVLink"], path: "Tests/MAVLinkTests",
                    exclude: ["Fixtures", "generate_golden_frames.py"]),
        .testTarget(name: "MAVLinkCompanionTests", dependencies: ["MAVLinkCompanion", "Clocks", "MAVLink", "Mission",
                                                                 "Navigation", "QuadProtocol", "Randomness"],
                    path: "Tests/MAVLinkCompanionTests"),
        .testTarget(name: "MAVLinkSimulationTests",
                    dependencies: ["MAVLinkSimulation", "Clocks", "DroneSimulation", "MAVLink", "Navigation"],
                    path: "Tests/MAVLinkSimulationTests"),
        .testTarget(name: "NavigationTests", dependencies: ["Navigation", "Randomness"], path: "Tests/NavigationTests",
                    exclude: ["Fixtures"]),
        .testTarget(name: "AirspaceTests", dependencies: ["Airspace", "Navigation", "Randomness"],
                    path: "Tests/AirspaceTests"),
        .testTarget(name: "MissionTests", dependencies: ["Mission", "Airspace", "Checksums", "Clocks", "GroundStation",
                                                        "Navigation", "QuadProtocol", "Randomness"],
                    path: "Tests/MissionTests", exclude: ["Fixtures"]),
        .testTarget(name: "NavigatorCoreTests", dependencies: ["NavigatorCore", "Clocks", "Navigation", "QuadProtocol"],
                    path: "Tests/NavigatorCoreTests"),
        .testTarget(name: "FlightControlTests",
                    dependencies: ["FlightControl", "Airspace", "Clocks", "Mission", "Randomness"],
                    path: "Tests/FlightControlTests"),
        .testTarget(name: "DroneSimulationTests", dependencies: ["DroneSimulation", "ARDrone", "Clocks", "Navigation"],
                    path: "Tests/DroneSimulationTests"),
        .testTarget(name: "FlightLogTests", dependencies: ["FlightLog", "Checksums", "Clocks", "QuadProtocol",
                                                          "Navigation", "Mission",
                                                          "DroneSimulation"],
                    path: "Tests/FlightLogTests", exclude: ["Fixtures"]),
        .testTarget(name: "LogSyncTests", dependencies: ["LogSync", "Clocks", "FlightLog", "QuadProtocol"],
                    path: "Tests/LogSyncTests"),
        .testTarget(name: "GroundStationTests", dependencies: ["GroundStation", "Clocks", "GPSD", "QuadProtocol",
                                                              "DroneSimulation",
                                                              "Navigation"],
                    path: "Tests/GroundStationTests", exclude: ["Fixtures"]),
        .testTarget(name: "GPSDTests", dependencies: ["GPSD", "Clocks", "QuadProtocol"], path: "Tests/GPSDTests"),
        // Parses each executable's command types directly (no processes): option syntax and --help text.
        .testTarget(
            name: "CommandLineTests",
            dependencies: ["CommandLineSupport", "Navigation", "DroneSimulation", "QuadProtocol", argumentParser,
                           "DroneSimKit", "NavigatorKit", "DroneControllerKit", "DroneLinkKit", "FlightControl",
                           "LocationBroadcasterKit", "TelemetryLoggerKit"],
            path: "Tests/CommandLineTests"
        ),
        .testTarget(name: "QuadMQTTTests", dependencies: ["QuadMQTT"], path: "Tests/QuadMQTTTests"),
        // The board services' Kits over the in-memory broker (no mosquitto, no drone): bus in, bus out.
        .testTarget(name: "NavigatorKitTests",
                    dependencies: ["NavigatorKit", "Clocks", "InMemoryMQTT", "QuadMQTT", "QuadProtocol", "QuadService",
                                   logging],
                    path: "Tests/NavigatorKitTests"),
        .testTarget(name: "DroneControllerKitTests",
                    dependencies: ["DroneControllerKit", "FlightControl", "Mission", "Navigation", "InMemoryMQTT",
                                   "QuadMQTT", "QuadProtocol", "QuadService", logging],
                    path: "Tests/DroneControllerKitTests"),
        .testTarget(name: "DroneLinkKitTests",
                    dependencies: ["DroneLinkKit", "VehicleLinkKit", "ARDrone", "DatagramIO", "NetworkEndpoint",
                                   "InMemoryMQTT", "QuadProtocol", "QuadService", logging],
                    path: "Tests/DroneLinkKitTests"),
        .testTarget(name: "MAVLinkLinkKitTests",
                    dependencies: ["MAVLinkLinkKit", "VehicleLinkKit", "MAVLink", "MAVLinkCompanion", "DatagramIO",
                                   "NetworkEndpoint", "InMemoryMQTT", "QuadProtocol", "QuadService", logging],
                    path: "Tests/MAVLinkLinkKitTests"),
        .testTarget(name: "DroneSimKitTests", dependencies: ["DroneSimKit", "Clocks", "DroneSimulation",
                                                            "MAVLinkSimulation"],
                    path: "Tests/DroneSimKitTests"),
        // The service runtime over the in-memory broker: no mosquitto process.
        .testTarget(name: "QuadServiceTests",
                    dependencies: ["QuadService", "InMemoryMQTT", "QuadMQTT", "QuadProtocol", logging, lifecycle],
                    path: "Tests/QuadServiceTests"),
        // telemetry-logger's behaviour over the in-memory broker, writing to a temporary directory: no mosquitto.
        .testTarget(name: "TelemetryLoggerKitTests",
                    dependencies: ["TelemetryLoggerKit", "InMemoryMQTT", "QuadMQTT", "QuadService", "QuadProtocol",
                                   "FlightLog", "LogSync", logging],
                    path: "Tests/TelemetryLoggerKitTests"),
        // location-broadcaster's behaviour over the in-memory broker with a fake drone-controller: no mosquitto.
        .testTarget(name: "LocationBroadcasterKitTests",
                    dependencies: ["LocationBroadcasterKit", "InMemoryMQTT", "QuadMQTT", "QuadService", "QuadProtocol",
                                   "GroundStation", "Mission", "Navigation", logging],
                    path: "Tests/LocationBroadcasterKitTests"),
        .testTarget(
            name: "IntegrationTests",
            dependencies: ["Clocks", "QuadMQTT", "QuadService", "QuadProtocol", "ARDrone", "Navigation", "FlightLog",
                           "LogSync", "ProcessSupport", "BrokerNodes", "Randomness", "Airspace"],
            path: "Tests/IntegrationTests",
            exclude: ["MAVLink", "AirspaceOracle", "Support/WallStep"]
        ),
    ]
)

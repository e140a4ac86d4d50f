// swift-tools-version:6.1
import PackageDescription

// Library targets live in Shared/, executables in Services/, tests in Tests/.
// Pure targets (TextSupport, QuadProtocol, ARDrone, Navigation, NavigatorCore, FlightControl, DroneSimulation,
// FlightLog, LogSync, GroundStation) do no I/O and read no clock; the executables perform what they decide.

let argumentParser = Target.Dependency.product(name: "ArgumentParser", package: "swift-argument-parser")
let logging = Target.Dependency.product(name: "Logging", package: "swift-log")
let lifecycle = Target.Dependency.product(name: "ServiceLifecycle", package: "swift-service-lifecycle")

func service(_ name: String, _ deps: [Target.Dependency]) -> Target {
    .executableTarget(
        name: name,
        dependencies: ["QuadService", "QuadProtocol", "QuadMQTT", "CommandLineSupport", argumentParser, logging, lifecycle]
            + deps,
        path: "Services/\(name)"
    )
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
        .library(name: "ProcessSupport", targets: ["ProcessSupport"]),
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
            path: "Shared/CMosquitto",
            pkgConfig: "libmosquitto",
            providers: [.apt(["libmosquitto-dev"])]
        ),
        // Pure code: no sockets, no files, no clock reads.
        // Text helpers every layer may use (decimal numbers, cleaning untrusted text); depends on nothing.
        .target(name: "TextSupport", path: "Shared/TextSupport"),
        .target(name: "QuadProtocol", path: "Shared/QuadProtocol"),
        .target(name: "ARDrone", dependencies: ["QuadProtocol"], path: "Shared/ARDrone"),
        .target(name: "MAVLink", path: "Shared/MAVLink"),
        .target(name: "MAVLinkSimulation", dependencies: ["DroneSimulation", "MAVLink", "Navigation"],
                path: "Shared/MAVLinkSimulation"),
        .target(name: "MAVLinkCompanion", dependencies: ["MAVLink", "QuadProtocol", logging],
                path: "Shared/MAVLinkCompanion"),
        // Geodesy and the solve report: no wire types (the solver that speaks them is NavigatorCore).
        .target(name: "Navigation", dependencies: ["TextSupport"], path: "Shared/Navigation"),
        // The navigator's pure core: Target and positions in, NavigationSolution out.
        .target(name: "NavigatorCore", dependencies: ["Navigation", "QuadProtocol"], path: "Shared/NavigatorCore"),
        .target(name: "FlightControl", dependencies: ["QuadProtocol", "Navigation"], path: "Shared/FlightControl"),
        .target(name: "NetworkEndpoint", path: "Shared/NetworkEndpoint"),
        .target(name: "DroneSimulation", dependencies: ["ARDrone", "Navigation", "NetworkEndpoint", "TextSupport"],
                path: "Shared/DroneSimulation"),
        .target(
            name: "FlightLog", dependencies: ["QuadProtocol", "Navigation", "TextSupport"], path: "Shared/FlightLog",
            exclude: ["FORMAT.md"]
        ),
        // Flight-log sync between the ground's and the board's loggers: gaps, request/response codec, merge.
        .target(name: "LogSync", dependencies: ["FlightLog", "QuadProtocol"], path: "Shared/LogSync"),
        .target(name: "GroundStation", dependencies: ["QuadProtocol", "Navigation", "TextSupport"], path: "Shared/GroundStation"),
        // Option parsing shared by every executable (signed numbers, LAT,LON values).
        .target(name: "CommandLineSupport", dependencies: ["Navigation", argumentParser], path: "Shared/CommandLineSupport"),
        // Test and bench support (spawning and stopping processes by pid); never linked into a service.
        .target(name: "ProcessSupport", path: "Shared/ProcessSupport"),
        // I/O edge.
        .target(name: "DatagramIO", dependencies: ["NetworkEndpoint"], path: "Shared/DatagramIO"),
        .target(name: "QuadMQTT", dependencies: ["CMosquitto", logging], path: "Shared/QuadMQTT"),
        // The in-memory broker for unit tests of service logic (satisfies `MQTTConnection` like the real client).
        .target(name: "InMemoryMQTT", dependencies: ["QuadMQTT"], path: "Shared/InMemoryMQTT"),
        .target(
            name: "QuadService",
            dependencies: ["QuadMQTT", "QuadProtocol", argumentParser, logging, lifecycle],
            path: "Shared/QuadService"
        ),

        service("location-broadcaster", ["GroundStation", "Navigation"]),
        service("navigator", ["Navigation", "NavigatorCore", "GroundStation", "TextSupport"]),
        service("drone-controller", ["FlightControl", "Navigation"]),
        service("drone-link", ["ARDrone", "DatagramIO"]),
        service("mavlink-link", ["MAVLinkCompanion", "DatagramIO", "NetworkEndpoint"]),
        service("telemetry-logger", ["FlightLog", "LogSync", "TextSupport"]),
        // The simulator speaks only the drone's UDP protocol: no MQTT, no service lifecycle.
        .executableTarget(
            name: "drone-sim",
            dependencies: ["DroneSimulation", "MAVLinkSimulation", "ARDrone", "Navigation", "DatagramIO",
                           "CommandLineSupport", argumentParser],
            path: "Services/drone-sim"
        ),

        .testTarget(name: "TextSupportTests", dependencies: ["TextSupport"], path: "Tests/TextSupportTests"),
        .testTarget(name: "QuadProtocolTests", dependencies: ["QuadProtocol"], path: "Tests/QuadProtocolTests",
                    exclude: ["Fixtures"]),
        .testTarget(name: "ARDroneTests", dependencies: ["ARDrone", "QuadProtocol"], path: "Tests/ARDroneTests",
                    exclude: ["Fixtures"]),
        .testTarget(name: "MAVLinkTests", dependencies: ["MAVLink"], path: "Tests/MAVLinkTests",
                    exclude: ["Fixtures", "generate_golden_frames.py"]),
        .testTarget(name: "MAVLinkCompanionTests", dependencies: ["MAVLinkCompanion", "MAVLink", "QuadProtocol"],
                    path: "Tests/MAVLinkCompanionTests"),
        .testTarget(name: "MAVLinkSimulationTests",
                    dependencies: ["MAVLinkSimulation", "DroneSimulation", "MAVLink", "Navigation"],
                    path: "Tests/MAVLinkSimulationTests"),
        .testTarget(name: "NavigationTests", dependencies: ["Navigation"], path: "Tests/NavigationTests",
                    exclude: ["Fixtures"]),
        .testTarget(name: "NavigatorCoreTests", dependencies: ["NavigatorCore", "Navigation", "QuadProtocol"],
                    path: "Tests/NavigatorCoreTests"),
        .testTarget(name: "FlightControlTests", dependencies: ["FlightControl"], path: "Tests/FlightControlTests"),
        .testTarget(name: "DroneSimulationTests", dependencies: ["DroneSimulation", "ARDrone", "Navigation"],
                    path: "Tests/DroneSimulationTests"),
        .testTarget(name: "FlightLogTests", dependencies: ["FlightLog", "QuadProtocol", "Navigation"],
                    path: "Tests/FlightLogTests", exclude: ["Fixtures"]),
        .testTarget(name: "LogSyncTests", dependencies: ["LogSync", "FlightLog", "QuadProtocol"],
                    path: "Tests/LogSyncTests"),
        .testTarget(name: "GroundStationTests", dependencies: ["GroundStation", "QuadProtocol", "Navigation"],
                    path: "Tests/GroundStationTests", exclude: ["Fixtures"]),
        // Parses each executable's command types directly (no processes): option syntax and --help text.
        .testTarget(
            name: "CommandLineTests",
            dependencies: ["CommandLineSupport", "Navigation", "DroneSimulation", argumentParser, "drone-sim", "navigator",
                           "drone-controller", "drone-link", "location-broadcaster", "telemetry-logger"],
            path: "Tests/CommandLineTests"
        ),
        .testTarget(name: "QuadMQTTTests", dependencies: ["QuadMQTT"], path: "Tests/QuadMQTTTests"),
        // The service runtime over the in-memory broker: no mosquitto process.
        .testTarget(name: "QuadServiceTests",
                    dependencies: ["QuadService", "InMemoryMQTT", "QuadMQTT", "QuadProtocol", logging, lifecycle],
                    path: "Tests/QuadServiceTests"),
        .testTarget(
            name: "IntegrationTests",
            dependencies: ["QuadMQTT", "QuadService", "QuadProtocol", "ARDrone", "Navigation", "FlightLog", "LogSync",
                           "ProcessSupport"],
            path: "Tests/IntegrationTests",
            exclude: ["MAVLink", "Support/WallStep"]
        ),
    ]
)

// swift-tools-version:6.0
// Package@swift-6.0.swift for swift-server/swift-service-lifecycle 2.13.0 in the board build (scripts/board-build.sh):
// its own manifest says 6.2; the three library targets, without the test kit and tests. Swift 5 mode: its
// `isolation:` functions rely on 6.2's nonisolated(nonsending) closures, which 6.0's checker rejects as a
// non-Sendable result crossing actors (the same code, hopping to the generic executor, as 6.0 runs it).
import PackageDescription

let package = Package(
    name: "swift-service-lifecycle",
    products: [
        .library(name: "ServiceLifecycle", targets: ["ServiceLifecycle"]),
        .library(name: "UnixSignals", targets: ["UnixSignals"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-log.git", from: "1.14.0"),
        .package(url: "https://github.com/apple/swift-async-algorithms.git", from: "1.1.3"),
    ],
    targets: [
        .target(
            name: "ServiceLifecycle",
            dependencies: [
                .product(name: "Logging", package: "swift-log"),
                .product(name: "AsyncAlgorithms", package: "swift-async-algorithms"),
                "UnixSignals", "ConcurrencyHelpers",
            ]
        ),
        .target(name: "UnixSignals", dependencies: ["ConcurrencyHelpers"]),
        .target(name: "ConcurrencyHelpers"),
    ],
    swiftLanguageVersions: [.v5]
)

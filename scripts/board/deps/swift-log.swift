// swift-tools-version:6.0
// Package@swift-6.0.swift for apple/swift-log 1.16.2 in the board build (scripts/board-build.sh): its own manifest
// says 6.2 for traits only; the Logging target alone, with the upcoming features it is written for that 6.0 knows.
import PackageDescription

let package = Package(
    name: "swift-log",
    products: [.library(name: "Logging", targets: ["Logging"])],
    targets: [
        .target(
            name: "Logging",
            exclude: ["CMakeLists.txt"],
            swiftSettings: [
                .enableUpcomingFeature("ExistentialAny"),
                .enableUpcomingFeature("InternalImportsByDefault"),
            ]
        )
    ]
)

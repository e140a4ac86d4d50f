// swift-tools-version:6.0
// Package@swift-6.0.swift for apple/swift-async-algorithms 1.1.4 in the board build (scripts/board-build.sh): its own
// manifest says 6.2 for traits and AsyncStreaming; swift-service-lifecycle needs the AsyncAlgorithms target only.
import PackageDescription

// The availability macros its sources are annotated with (as its own manifest defines them).
let availability: [SwiftSetting] = [
    "AsyncAlgorithms 1.0:macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0",
    "AsyncAlgorithms 1.1:macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0",
    "AsyncAlgorithms 1.2:macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0",
    "AsyncAlgorithms 1.3:macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0",
].map { .enableExperimentalFeature("AvailabilityMacro=\($0)") }

let package = Package(
    name: "swift-async-algorithms",
    products: [.library(name: "AsyncAlgorithms", targets: ["AsyncAlgorithms"])],
    dependencies: [.package(url: "https://github.com/apple/swift-collections.git", from: "1.5.0")],
    targets: [
        .target(
            name: "AsyncAlgorithms",
            dependencies: [
                .product(name: "OrderedCollections", package: "swift-collections"),
                .product(name: "DequeModule", package: "swift-collections"),
            ],
            swiftSettings: availability + [.enableExperimentalFeature("StrictConcurrency=complete")]
        )
    ]
)

import Foundation
import Testing

/// Runs command-line validators (xmllint, rsvg-convert) for exporter tests. Without CI=true a missing tool skips
/// the test (see `available`); with CI=true the test runs and fails on the missing tool.
enum ExternalTool {
    static let isCI = ProcessInfo.processInfo.environment["CI"] == "true"

    static func path(_ name: String) -> String? {
        let directories = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        return directories.map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// For `.enabled(if:)`: true when the tool is installed or CI requires it.
    static func available(_ name: String) -> Bool { isCI || path(name) != nil }

    struct Result {
        var status: Int32
        var output: String
    }

    static func run(_ name: String, _ arguments: [String]) throws -> Result {
        let executable = try #require(path(name), "\(name) is not installed (required when CI=true)")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, output: String(decoding: data, as: UTF8.self))
    }

    /// Writes `text` to a file in a per-run scratch directory (kept for inspection) and returns its path.
    static func write(_ text: String, name: String) throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("flightlog-tests")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let url = directory.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url.path
    }

    static func fixturePath(_ name: String) -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")
            .appendingPathComponent(name).path
    }
}

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

    /// `body` with the path of a file holding `text`, in a directory of its own in TMPDIR that is removed afterwards
    /// (with what the tool wrote beside it).
    static func withFile<T>(_ text: String, name: String, _ body: (String) throws -> T) throws -> T {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("quad-flightlog-tests-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return try body(url.path)
    }

    static func fixturePath(_ name: String) -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")
            .appendingPathComponent(name).path
    }
}

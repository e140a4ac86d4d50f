import Foundation

/// Where the executables come from: the release build of the root package (`--bin-dir`) and the system PATH.
enum Tools {
    struct Missing: Error, CustomStringConvertible {
        var name: String
        var description: String { "\(name) not found (install mosquitto and mosquitto-clients)" }
    }

    static func path(_ name: String) throws -> String {
        let directories = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init)
            + ["/usr/sbin", "/usr/local/sbin", "/sbin"]
        for directory in directories where FileManager.default.isExecutableFile(atPath: "\(directory)/\(name)") {
            return "\(directory)/\(name)"
        }
        throw Missing(name: name)
    }

    /// This executable, to start the load generator as a second process.
    static var selfExecutable: String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }
}

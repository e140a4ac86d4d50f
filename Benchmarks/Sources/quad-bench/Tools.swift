import BrokerNodes
import Foundation

/// Where the executables come from: the release build of the root package (`--bin-dir`) and the system PATH.
enum Tools {
    struct Missing: Error, CustomStringConvertible {
        var name: String
        var description: String { "\(name) not found (install mosquitto and mosquitto-clients)" }
    }

    static func path(_ name: String) throws -> String {
        guard let path = SystemTool.path(name) else { throw Missing(name: name) }
        return path
    }

    /// This executable, to start the load generator as a second process.
    static var selfExecutable: String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }
}

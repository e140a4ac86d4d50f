import Foundation
import ProcessSupport

/// A serial port for mavlink-link without hardware: socat makes a pseudo-terminal pair, links its slave side at
/// `path` and relays it to a UDP peer (drone-sim's MAVLink face, a SITL). Killing it is the USB adapter unplugged
/// (the slave hangs up, the link disappears); `restart()` plugs it back in at the same path. Stopped by pid.
final class SerialBridge: @unchecked Sendable {
    let path: String
    /// socat's second address, e.g. `udp-listen:14540,bind=127.0.0.1`.
    let peer: String
    let logDirectory: URL
    private(set) var process: ChildProcess

    /// Starts socat and waits until `path` is there.
    init(path: String, peer: String, logDirectory: URL) async throws {
        self.path = path
        self.peer = peer
        self.logDirectory = logDirectory
        process = try Self.launch(path: path, peer: peer, logDirectory: logDirectory)
        try await waitForLink()
    }

    /// In front of drone-sim's MAVLink face on `simPort`, which sends to `gcsPort`: socat sends from that port.
    static func toSimulator(path: String, simPort: UInt16, gcsPort: UInt16, logDirectory: URL) async throws
        -> SerialBridge {
        try await SerialBridge(path: path, peer: "udp:127.0.0.1:\(simPort),bind=127.0.0.1:\(gcsPort)",
                               logDirectory: logDirectory)
    }

    /// Where an autopilot SITL sends its MAVLink (`AutopilotSITL.linkPort`): socat answers whoever sends there.
    static func toAutopilot(path: String, linkPort: UInt16, logDirectory: URL) async throws -> SerialBridge {
        try await SerialBridge(path: path, peer: "udp-listen:\(linkPort),bind=127.0.0.1", logDirectory: logDirectory)
    }

    private static func launch(path: String, peer: String, logDirectory: URL) throws -> ChildProcess {
        try ChildProcess(executable: TestEnvironment.requireTool("socat"),
                         arguments: ["-d", "-d", "pty,raw,echo=0,link=\(path)", peer],
                         name: "socat-\(URL(fileURLWithPath: path).lastPathComponent)", logDirectory: logDirectory)
    }

    private func waitForLink() async throws {
        try await eventually(timeout: TestEnvironment.readinessTimeout,
                             "socat's pty at \(path)\n\(process.output())") {
            FileManager.default.fileExists(atPath: path)
        }
    }

    var isRunning: Bool { process.isRunning }

    /// The adapter unplugged: socat ends, the pty's slave side hangs up, the link at `path` goes.
    func stop() {
        _ = process.stop()
        try? FileManager.default.removeItem(atPath: path)
    }

    /// Plugged back in: a new pty pair at the same path.
    func restart() async throws {
        stop()
        process = try Self.launch(path: path, peer: peer, logDirectory: logDirectory)
        try await waitForLink()
    }

    deinit { stop() }
}

import BrokerNodes
import Foundation
import ProcessSupport
import Synchronization

/// A real gpsd reading an NMEA log that this test serves over TCP (gpsd's `tcp://` source), once, one sentence
/// every `cycleS`, from `startReplay()` on: the test starts the replay once its client is connected, so no fix
/// goes by before anyone listens. It replaces gpsfake, whose pseudo-terminal gpsd opened late on a loaded machine
/// (probing, flushing) and then never saw the log at all.
final class ReplayedGPSD: @unchecked Sendable {
    /// The port gpsd serves its clients on.
    let port: UInt16
    let gpsd: ChildProcess
    private let sentences: [String]
    private let cycleS: Double
    private let listener: Int32
    private let go = DispatchSemaphore(value: 0)
    private let state = Mutex<(feed: Int32?, stopped: Bool)>((nil, false))

    init(log: URL, cycleS: Double, directory: URL) throws {
        sentences = try String(contentsOf: log, encoding: .utf8)
            .split(whereSeparator: \.isNewline).map(String.init).filter { $0.hasPrefix("$") }
        self.cycleS = cycleS
        let feedPort: UInt16
        (listener, feedPort) = try LoopbackListener.open()
        port = try freeLoopbackPort()
        // -N foreground, -n open the source at once, -b never write to it, -F its control socket in the directory.
        gpsd = try ChildProcess(
            executable: TestEnvironment.requireTool("gpsd"),
            arguments: ["-N", "-n", "-b", "-S", "\(port)", "-F", directory.appendingPathComponent("gpsd.sock").path,
                        "tcp://127.0.0.1:\(feedPort)"],
            name: "gpsd", logDirectory: directory)
        Thread.detachNewThread { [self] in feed() }
    }

    func startReplay() { go.signal() }

    func stop() {
        // Once only (a test's defer, then deinit): closing the listener twice could close a descriptor reused since.
        let (first, feed) = state.withLock { s -> (Bool, Int32?) in
            defer { s.stopped = true; s.feed = nil }
            return (!s.stopped, s.feed)
        }
        guard first else { return }
        go.signal()
        if let feed { shutdown(feed, Int32(SHUT_RDWR)); close(feed) }
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
        _ = gpsd.stop(signal: SIGTERM)
    }

    deinit { stop() }

    /// gpsd connects once (-n); the log goes out from `startReplay()` on, then the connection stays open and idle.
    private func feed() {
        let fd = accept(listener, nil, nil)
        guard fd >= 0 else { return }
        let admitted = state.withLock { s -> Bool in
            guard !s.stopped else { return false }
            s.feed = fd
            return true
        }
        guard admitted else { close(fd); return }
        go.wait()
        for sentence in sentences {
            guard !state.withLock({ $0.stopped }) else { return }
            let bytes = Array((sentence + "\r\n").utf8)
            let written = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard written == bytes.count else { return }
            Thread.sleep(forTimeInterval: cycleS)
        }
    }
}

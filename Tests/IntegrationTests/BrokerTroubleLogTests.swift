import Foundation
import ProcessSupport
import Testing

/// A broker that cannot be reached, or that refuses us, is reported within a second or two with the real
/// reason — not after the supervisor's 15 s, and never as "unknown reason".
@Suite("Broker trouble in the log", .offPool, .enabled(if: TestEnvironment.available("mosquitto")))
struct BrokerTroubleLogTests {
    /// Starts `arguments` and waits for its output to contain `expected`; then checks, by the process's own log
    /// stamps, that the last of them came at most `withinS` seconds after its first log line. Measured on the
    /// process's clock, not the test's: how fast a loaded machine starts a process is no behaviour of ours (two of
    /// these failed at 2 s of the test's clock while the suite's flights loaded the machine). The test's own wait
    /// only catches a hang.
    func expectLine(_ executable: String, _ arguments: [String], containing expected: [String],
                    withinS: Int = 2) async throws {
        let directory = try TestEnvironment.temporaryDirectory("trouble")
        defer { TestEnvironment.removeTemporaryDirectory(directory) }
        let started = Date()
        let child = try ChildProcess(executable: TestEnvironment.executable(executable).path, arguments: arguments,
                                     logDirectory: directory)
        defer { child.stop(signal: SIGTERM) }
        // Polled on a thread of its own: on the test process's (possibly starved) pool a 20 ms sleep once took 30 s.
        let output = try await onThread { () -> String in
            var output = ""
            while Date().timeIntervalSince(started) < 60 {
                output = child.output()
                if expected.allSatisfy(output.contains) { break }
                usleep(20_000)
            }
            return output
        }
        #expect(expected.allSatisfy(output.contains), "wanted \(expected) in:\n\(output)")
        #expect(!output.contains("unknown reason"), "\(output)")
        let lines = output.split(separator: "\n").map(String.init)
        let stamps = lines.compactMap(Self.logStampS)
        let wanted = expected.compactMap { text in lines.first { $0.contains(text) }.flatMap(Self.logStampS) }
        if let first = stamps.first, let last = wanted.max() {
            // Whole seconds: a line 1.9 s after the first may carry a stamp 2 s later.
            #expect(last - first <= withinS, "\(last - first) s after the first log line, by its stamps:\n\(output)")
        }
    }

    /// The whole-second stamp a service's log line starts with (`2026-11-28T05:48:34+0000 …`), as seconds.
    static func logStampS(_ line: String) -> Int? {
        let parts = line.prefix(19).split(whereSeparator: { "-T:".contains($0) }).compactMap { Int($0) }
        guard parts.count == 6 else { return nil }
        return ((parts[2] * 24 + parts[3]) * 60 + parts[4]) * 60 + parts[5]
    }

    @Test("connection refused: a warning with the reason within 2 s (service and tail)")
    func refused() async throws {
        // Held bound without listening for the whole test: connects are refused, and no other suite's broker can
        // take the port meanwhile (seen in a busy run: a "free" port got a broker and the service connected).
        let holder = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(holder) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self,
                capacity: 1) { bind(holder, $0, length) == 0 && getsockname(holder, $0, &length) == 0 }
        }
        try #require(holder >= 0 && bound)
        let port = UInt16(bigEndian: address.sin_port)
        try await expectLine("navigator", ["--broker", "127.0.0.1:\(port)"],
                       containing: ["warning", "cannot reach broker 127.0.0.1:\(port): Connection refused"])
        try await expectLine("telemetry-logger", ["tail", "--broker", "127.0.0.1:\(port)"],
                       containing: ["warning", "cannot reach broker 127.0.0.1:\(port): Connection refused"])
    }

    @Test("silent broker (connect never completes): a warning within 2 s")
    func silent() async throws {
        let silent = try SilentBroker()
        try await expectLine("drone-link", ["--address", "127.0.0.1", "--broker", silent.address],
                       containing: ["warning", "cannot reach broker \(silent.address): no answer"])
    }

    @Test("unresolvable host: a DNS warning within 2 s")
    func unresolvable() async throws {
        try await expectLine("navigator", ["--broker", "no-such-broker.invalid:1883"],
                       containing: ["warning", "cannot reach broker no-such-broker.invalid:1883"])
    }

    @Test("wrong password: refused by broker with its reason, MQTT 3.1.1 and 5",
          .enabled(if: TestEnvironment.available("mosquitto_passwd")),
          arguments: [("3.1.1", "not authorised"), ("5", "Not authorized")])
    func wrongPassword(version: String, reason: String) async throws {
        let directory = try TestEnvironment.temporaryDirectory("passwd")
        defer { TestEnvironment.removeTemporaryDirectory(directory) }
        let passwords = directory.appendingPathComponent("passwd")
        try "".write(to: passwords, atomically: true, encoding: .utf8)
        let made = try runCommand(TestEnvironment.requireTool("mosquitto_passwd"),
                                  ["-b", passwords.path, "pilot", "right"], logDirectory: directory)
        try #require(made.exitCode == 0, "\(made.output)")
        let wrong = directory.appendingPathComponent("wrong")
        try "wrong\n".write(to: wrong, atomically: true, encoding: .utf8)
        let broker = try BrokerProcess(extraConfig: "allow_anonymous false\npassword_file \(passwords.path)\n")
        try await expectLine("navigator", ["--broker", broker.address, "--username", "pilot", "--password-file",
            wrong.path,
                                     "--mqtt-version", version],
                       containing: ["refused by broker \(broker.address): ", reason])
    }

    @Test("MQTT 5 against a 3.1.1-only broker: refused by broker: Unsupported Protocol Version")
    func protocolVersion() async throws {
        let broker = try ProtocolRefusingBroker()
        try await expectLine("navigator", ["--broker", broker.address, "--mqtt-version", "5"],
                       containing: ["refused by broker \(broker.address): Unsupported Protocol Version"])
    }

    @Test("--mqtt-version auto (location-broadcaster's default) falls back to 3.1.1 on a 3.1.1-only broker")
    func autoFallsBack() async throws {
        let broker = try ProtocolRefusingBroker(accepting311: true)
        try await expectLine("navigator", ["--broker", broker.address, "--mqtt-version", "auto"],
                       containing: ["does not speak MQTT 5", "using 3.1.1", "connected to \(broker.address)"],
                       withinS: 5)
        // The presence went out over the 3.1.1 session.
        try await eventually(timeout: TestEnvironment.readinessTimeout, "the presence on the 3.1.1 session") {
            broker.publishedTopics.contains { $0.hasSuffix("/status/navigator") }
        }
        #expect(broker.publishedTopics.contains { $0.hasSuffix("/status/navigator") }, "\(broker.publishedTopics)")
        // Without `auto` the refusal stands.
        try await expectLine("navigator", ["--broker", broker.address, "--mqtt-version=5"],
                       containing: ["refused by broker \(broker.address): Unsupported Protocol Version"])
    }
}

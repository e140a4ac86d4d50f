import BrokerNodes
import Foundation
import ProcessSupport
import QuadProtocol
import Testing

/// mavlink-link on a serial port, the real executables: socat's pseudo-terminal pair in front of drone-sim's MAVLink
/// face stands in for TELEM2 (SerialBridge); killing socat is the USB adapter unplugged. A serial link that is wrong
/// says so at once, with its exit code (docs/ground-tools.md, "Exit codes").
@Suite("mavlink-link on a serial port", .offPool, .serialized,
       .enabled(if: TestEnvironment.available("mosquitto", "socat")))
struct SerialPortLinkTests {
    static let drone = DroneID(rawValue: "drone1")!

    /// A broker, drone-sim's MAVLink face and a pty bridge in front of it at `<directory>/ttyQUAD`.
    final class Rig: @unchecked Sendable {
        let directory: URL
        let broker: BrokerProcess
        let sim: ChildProcess
        let trace: URL
        let bridge: SerialBridge
        let bus: BusRecorder
        var device: String { bridge.path }

        init(_ label: String) async throws {
            directory = try TestEnvironment.temporaryDirectory(label)
            broker = try BrokerProcess()
            let simPort = try freeLoopbackPort(udp: true)
            var gcsPort = try freeLoopbackPort(udp: true)
            while gcsPort == simPort { gcsPort = try freeLoopbackPort(udp: true) }
            trace = directory.appendingPathComponent("trace.csv")
            sim = try ChildProcess(executable: TestEnvironment.executable("drone-sim").path,
                                   arguments: ["--protocol", "mavlink", "--listen", "127.0.0.1", "--mavlink-port",
                                               "\(simPort)", "--gcs", "127.0.0.1:\(gcsPort)", "--trace", trace.path],
                                   logDirectory: directory)
            bridge = try await SerialBridge.toSimulator(path: directory.appendingPathComponent("ttyQUAD").path,
                                                        simPort: simPort, gcsPort: gcsPort, logDirectory: directory)
            bus = try await BusRecorder(port: broker.port, id: "serial-\(label)", filters: [
                Topics.linkStatus.topic(for: SerialPortLinkTests.drone),
                Topics.droneState.topic(for: SerialPortLinkTests.drone),
            ])
        }

        func link(_ arguments: [String]) throws -> ChildProcess {
            try ChildProcess(executable: TestEnvironment.executable("mavlink-link").path,
                             arguments: ["--broker", broker.address, "--drone", "drone1"] + arguments,
                             logDirectory: directory)
        }

        func statuses(since: Date = .distantPast) -> [LinkStatus] {
            bus.messages(on: Topics.linkStatus.topic(for: SerialPortLinkTests.drone)).filter { $0.at >= since }
                .compactMap { try? LinkStatus(decoding: $0.message.payload) }
        }

        var droneStates: Int { bus.messages(on: Topics.droneState.topic(for: SerialPortLinkTests.drone)).count }

        deinit {
            bus.client.shutdown()
            bridge.stop()
            sim.stop()
            broker.stop()
            TestEnvironment.removeTemporaryDirectory(directory)
        }
    }

    static func occurrences(_ text: String, in output: String) -> Int {
        output.components(separatedBy: text).count - 1
    }

    @Test("""
        over a pty in front of drone-sim: telemetry flows; the adapter unplugged → not connected at once, logged \
        once; plugged back in → connected, logged once; nothing arms
        """)
    func unpluggedAndBack() async throws {
        let rig = try await Rig("serial-unplug")
        let link = try rig.link(["--serial", rig.device, "--baud", "57600"])
        defer { link.stop() }
        try await eventually(timeout: .seconds(30), "connected over the pty\n\(link.output())") {
            rig.statuses().last?.connected == true && rig.droneStates > 0
        }
        #expect(link.output().contains("MAVLink on serial \(rig.device) at 57600 baud"))

        let unplugged = Date()
        rig.bridge.stop()
        try await eventually(timeout: .seconds(10), "not connected after the unplugging\n\(link.output())") {
            rig.statuses(since: unplugged).contains { !$0.connected }
        }
        // A few reopening attempts fail while it is away (one per second): still logged once.
        try await Task.sleep(for: .seconds(2.5))
        #expect(link.isRunning, "the link ended when its device vanished:\n\(link.output())")
        let plugged = Date()
        try await rig.bridge.restart()
        try await eventually(timeout: .seconds(30), "connected again after the plugging in\n\(link.output())") {
            rig.statuses(since: plugged).last?.connected == true
        }
        let output = link.output()
        #expect(Self.occurrences("serial device \(rig.device) gone", in: output) == 1, "\(output)")
        #expect(Self.occurrences("serial device \(rig.device) is back", in: output) == 1, "\(output)")
        // Nothing armed: the simulator never left the ground, and the link says so at no time.
        let rows = TraceRow.read(rig.trace)
        #expect(!rows.isEmpty && rows.allSatisfy { !$0.isAirborne }, "\(rows.last.map(\.flightState) ?? "no trace")")
    }

    @Test("a serial link that is wrong says so at once: missing 66, not a tty 78, in use 69, with --listen 64")
    func wrongSerialLinks() async throws {
        let rig = try await Rig("serial-wrong")
        let file = rig.directory.appendingPathComponent("not-a-tty").path
        _ = FileManager.default.createFile(atPath: file, contents: Data([0xFD]))
        let cases: [([String], Int32, String)] = [
            (["--serial", rig.directory.appendingPathComponent("ttyNONE").path], 66, "no such device"),
            (["--serial", "/dev/null"], 78, "/dev/null is not a serial port (a tty)"),
            (["--serial", file], 78, "is not a serial port (a tty): it is a regular file"),
            (["--serial", rig.device, "--listen", "127.0.0.1:14540"], 64, "--listen and --serial both given"),
            (["--serial", rig.device, "--baud", "56000"], 64, "--baud 56000"),
        ]
        for (arguments, code, message) in cases {
            let run = try rig.link(arguments)
            let exit = run.waitForExit(timeout: .seconds(20)) ?? run.stop(signal: SIGKILL)
            #expect(exit == code, "\(arguments): exit \(exit)\n\(run.output())")
            #expect(run.output().contains(message), "\(arguments): \(run.output())")
        }

        let first = try rig.link(["--serial", rig.device])
        defer { first.stop() }
        try await eventually(timeout: .seconds(30), "the first link connected\n\(first.output())") {
            rig.statuses().last?.connected == true
        }
        let second = try rig.link(["--serial", rig.device])
        let exit = second.waitForExit(timeout: .seconds(20)) ?? second.stop(signal: SIGKILL)
        #expect(exit == 69, "second link on the same device: exit \(exit)\n\(second.output())")
        #expect(second.output().contains("is in use by pid \(first.pid) (mavlink-link)"), "\(second.output())")
        #expect(first.isRunning && rig.statuses().last?.connected == true, "the first link was disturbed")
    }

    @Test("nothing on the line within 5 s: a warning naming device and baud and the usual rates; it keeps listening")
    func noMAVLinkWarns() async throws {
        let rig = try await Rig("serial-silent")
        // A pty with nobody behind it: socat waits for a UDP peer that never writes.
        let silentPort = try freeLoopbackPort(udp: true)
        let silent = try await SerialBridge.toAutopilot(path: rig.directory.appendingPathComponent("ttySILENT").path,
                                                        linkPort: silentPort, logDirectory: rig.directory)
        defer { silent.stop() }
        let link = try rig.link(["--serial", silent.path, "--baud", "57600"])
        defer { link.stop() }
        let warning = "no MAVLink at 57600 baud on \(silent.path) within 5 s: nothing received"
        try await eventually(timeout: .seconds(30), "the no-MAVLink warning\n\(link.output())") {
            link.output().contains(warning)
        }
        #expect(link.output().contains("try 921600, 115200 or 460800 (--baud); still listening"))
        #expect(link.isRunning)
        #expect(rig.statuses().allSatisfy { !$0.connected })
    }
}

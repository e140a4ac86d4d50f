import ARDrone
import Clocks
import Testing
@testable import DroneSimulation

/// Drives a SimulatorSession with fake time, like the executable's loop but without sockets.
struct SessionHarness {
    static let client = UDPEndpoint(address: 0x7F00_0001, port: 40_000)
    var session = SimulatorSession(
        configuration: SimulatorConfiguration(home: DroneHarness.home, headingDeg: 0, seed: 3), now: .init(us: 0)
    )
    var nowUs: Int64 = 0
    var sequence: UInt32 = 1
    /// Everything the session asked for, in order.
    var actions: [SimulatorAction] = []

    mutating func trigger() {
        actions += session.receiveNavdataTrigger([1, 0, 0, 0], from: SessionHarness.client, now: .init(us: nowUs))
    }

    /// Sends the commands in one datagram, numbered from `sequence` on.
    mutating func send(_ commands: [ATCommand]) {
        var text = ""
        for command in commands {
            text += command.encoded(sequence: sequence)
            sequence += 1
        }
        sendRaw(text)
    }

    mutating func sendRaw(_ text: String) {
        actions += session.receiveATDatagram(Array(text.utf8), from: SessionHarness.client, now: .init(us: nowUs))
    }

    /// Advances time in 10 ms ticks; `keepAlive` sends REF/PCMD every 30 ms like node-ar-drone.
    mutating func run(seconds: Double, keepAlive ref: Int32? = nil) {
        let end = nowUs + Int64(seconds * 1_000_000)
        while nowUs < end {
            nowUs += 10_000
            if let ref, nowUs % 30_000 == 0 { send([.ref(ref), .hover]) }
            actions += session.tick(now: .init(us: nowUs))
        }
    }

    /// Navdata packets sent so far (decoded), optionally clearing the record.
    mutating func takeNavdata() throws -> [NavdataPacket] {
        var packets: [NavdataPacket] = []
        for case .sendNavdata(let bytes, let endpoint) in actions {
            #expect(endpoint == SessionHarness.client)
            packets.append(try NavdataPacket.decode(bytes))
        }
        actions.removeAll()
        return packets
    }

    func logs() -> [String] {
        actions.compactMap { if case .log(let line) = $0 { line } else { nil } }
    }

    /// Completes the bootstrap handshake the way node-ar-drone's `resume()` does.
    mutating func configureDemo() {
        trigger()
        send([.ctrl(mode: ATControlMode.ack), .config(key: "general:navdata_demo", value: "TRUE")])
        send([.ctrl(mode: ATControlMode.ack)])
    }
}

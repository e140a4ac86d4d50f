import Clocks
import DroneSimulation
import MAVLinkSimulation
import Testing
@testable import DroneSimKit

/// drone-sim's glue without sockets: which socket feeds which entry of the session, and the seeded drops.
@Suite("drone-sim faces and drops")
struct SimulatorFaceTests {
    let client = UDPEndpoint(dottedQuad: "127.0.0.1", port: 40_000)!

    func navdataSent(_ actions: [SimulatorAction]) -> [UDPEndpoint] {
        actions.compactMap { if case .sendNavdata(_, let to) = $0 { to } else { nil } }
    }

    @Test(
        "a datagram on the navdata socket (1) starts navdata to its sender; the same bytes on the AT socket (0) do not")
    func navdataSocketTriggersNavdata() {
        var onNavdata = SimulatorSession(configuration: SimulatorConfiguration(
            home: SimulatorConfiguration.defaultHome), now: .init(us: 0))
        let navdata = onNavdata.receive([1, 0, 0, 0], from: client, socket: 1, now: .init(us: 1_000))
        #expect(navdataSent(navdata) == [client])
        var onAT = SimulatorSession(configuration: SimulatorConfiguration(home: SimulatorConfiguration.defaultHome),
            now: .init(us: 0))
        #expect(navdataSent(onAT.receive([1, 0, 0, 0], from: client, socket: 0, now: .init(us: 1_000))).isEmpty)
    }

    @Test("the MAVLink face's stop line carries its frame counters")
    func mavlinkStopLine() {
        var face = MAVLinkSimulatorSession(configuration: SimulatorConfiguration(
            home: SimulatorConfiguration.defaultHome), gcs: client, now: .init(us: 0))
        _ = face.receive([0xFD, 0x09, 0x00, 0x00, 0x01, 0x01, 0x01, 0x00, 0x00, 0x00] + Array(repeating: 0, count: 11),
                         from: client, socket: 0, now: .init(us: 1_000))
        #expect(face.stopLine.hasPrefix("drone-sim: stopping (MAVLink frames 0, bad CRC 1"))
    }

    @Test("--px4-param sets PX4 parameters by name; an unknown name or a value out of range is a usage error")
    func px4Parameters() throws {
        let command = try DroneSimCommand.parse(["--protocol", "mavlink", "--px4-param", "COM_OBL_RC_ACT=5",
                                          "--px4-param", "COM_OF_LOSS_T=2.5"])
        let parameters = try command.px4Parameters()
        #expect(parameters.offboardLossAction == 5 && parameters.offboardLoss == .milliseconds(2500))
        #expect(throws: (any Error).self) { try DroneSimCommand.parse(["--px4-param", "NO_SUCH=1"]) }
        #expect(throws: (any Error).self) { try DroneSimCommand.parse(["--px4-param", "COM_OBL_RC_ACT=9"]) }
        #expect(throws: (any Error).self) { try DroneSimCommand.parse(["--px4-param", "COM_OBL_RC_ACT"]) }
    }

    @Test("--drop-rate: the same seed drops the same datagrams; 0 drops none, 1 drops all")
    func seededDrops() {
        func pattern(rate: Double, seed: UInt64) -> [Bool] {
            var dropper = DatagramDropper(rate: rate, seed: seed)
            return (0..<200).map { _ in dropper.shouldDrop() }
        }
        #expect(pattern(rate: 0.3, seed: 7) == pattern(rate: 0.3, seed: 7))
        #expect(pattern(rate: 0.3, seed: 7) != pattern(rate: 0.3, seed: 8))
        #expect((40...80).contains(pattern(rate: 0.3, seed: 7).filter { $0 }.count))
        #expect(!pattern(rate: 0, seed: 7).contains(true))
        #expect(!pattern(rate: 1, seed: 7).contains(false))
    }
}

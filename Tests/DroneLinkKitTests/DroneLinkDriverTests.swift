import ARDrone
import DatagramIO
import InMemoryMQTT
import Logging
import NetworkEndpoint
import QuadProtocol
import QuadService
import Testing
import VehicleLinkKit
@testable import DroneLinkKit

/// drone-link's driver over the in-memory broker: a navdata datagram in, the telemetry topics out, numbered and
/// stamped by the shared publisher. No drone: the sockets point at a local port nobody listens on.
@Suite("drone-link over the in-memory broker")
struct DroneLinkDriverTests {
    let broker = InMemoryBroker()
    let drone = DroneID(rawValue: "t1")!
    static let state: DroneStateFlags = [.navdataDemo, .picVersionOK, .atCodecThreadOn, .navdataThreadOn]

    func driver() throws -> DroneLinkDriver {
        let connection = broker.connect(clientId: "drone-link")
        try connection.start()
        let runtime = ServiceRuntime(service: "drone-link", drone: drone, connection: connection,
                                     logger: Logger(label: "drone-link"))
        let nobody = try #require(UDPEndpoint(dottedQuad: "127.0.0.1", port: 9))
        return DroneLinkDriver(machine: LinkStateMachine(), atSocket: try UDPSocket(connectingTo: nobody),
                               navdataSocket: try UDPSocket(connectingTo: nobody),
                               publisher: VehicleTelemetryPublisher(runtime: runtime),
                               logger: Logger(label: "drone-link"))
    }

    func navdata(sequence: UInt32, battery: UInt32, demo: Bool = true) -> [UInt8] {
        let options: [NavdataOption] = demo ? [.demo(NavdataDemo(majorState: 4, batteryPercent: battery, pitchDeg: 0,
                                                                rollDeg: 0, yawDeg: 90, altitudeM: 2.5, velocityXMps: 0,
                                                                velocityYMps: 0, velocityZMps: 0))] : []
        return NavdataPacket(state: Self.state, sequence: sequence, options: options).encoded()
    }

    @Test("each navdata packet with a demo option becomes one telemetry/drone message, numbered from 1 in order")
    func navdataBecomesDroneState() throws {
        var link = try driver()
        link.perform(link.machine.start(now: .init(us: 0)))
        link.navdata(navdata(sequence: 1, battery: 80), now: .init(us: 10_000))
        link.navdata(navdata(sequence: 2, battery: 79, demo: false), now: .init(us: 20_000))
        link.navdata(navdata(sequence: 3, battery: 78), now: .init(us: 30_000))

        let states = try broker.published(matching: Topics.droneState.topic(for: drone)).map {
            try DroneState(decoding: $0.payload)
        }
        #expect(states.map(\.navdataSequence) == [1, 3])
        #expect(states.map(\.sequence) == [1, 2])
        #expect(states.map(\.batteryPercent) == [80, 78])
        #expect(states.allSatisfy { $0.controlState == .hovering && abs($0.altitudeM - 2.5) < 1e-3 })
        // Stamped with this host's wall clock, for logs.
        #expect(states.allSatisfy { abs($0.timestampUs - WallClock.nowUs()) < 60_000_000 })
    }

    @Test("the link's status goes out retained on telemetry/link once navdata flows")
    func linkStatusIsRetained() throws {
        var link = try driver()
        link.perform(link.machine.start(now: .init(us: 0)))
        for index in 1...5 {
            link.navdata(navdata(sequence: UInt32(index), battery: 80), now: .init(us: Int64(index) * 50_000))
        }
        link.perform(link.machine.tick(now: .init(us: 300_000)))
        let retained = try #require(broker.retained(on: Topics.linkStatus.topic(for: drone)))
        let status = try LinkStatus(decoding: retained.payload)
        #expect(status.sequence >= 1)
        #expect(status.connected)
    }
}

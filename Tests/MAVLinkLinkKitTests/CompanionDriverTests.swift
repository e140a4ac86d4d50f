import DatagramIO
import InMemoryMQTT
import Logging
import MAVLink
import MAVLinkCompanion
import NetworkEndpoint
import QuadProtocol
import QuadService
import Testing
import VehicleLinkKit
@testable import MAVLinkLinkKit

/// mavlink-link's driver over the in-memory broker: MAVLink frames in, the same telemetry topics as drone-link
/// out. No autopilot: the frames are encoded here and handed to the driver as datagrams.
@Suite("mavlink-link over the in-memory broker")
struct CompanionDriverTests {
    let broker = InMemoryBroker()
    let drone = DroneID(rawValue: "t1")!
    var autopilot = MAVLinkEncoder(systemId: 1, componentId: 1)
    let from = UDPEndpoint(dottedQuad: "127.0.0.1", port: 14580)!

    func driver() throws -> CompanionDriver<UDPTransport> {
        let connection = broker.connect(clientId: "mavlink-link")
        try connection.start()
        let runtime = ServiceRuntime(service: "mavlink-link", drone: drone, connection: connection,
                                     logger: Logger(label: "mavlink-link"))
        // Port 0: the kernel picks one; nothing is sent to it in these tests.
        let listen = UDPEndpoint(dottedQuad: "127.0.0.1", port: 0)!
        return CompanionDriver(machine: CompanionStateMachine(), socket: try UDPSocket(binding: listen), listen: listen,
                               publisher: VehicleTelemetryPublisher(runtime: runtime),
                               logger: Logger(label: "mavlink-link"))
    }

    @Test(
        """
            an armed, flying autopilot's frames become telemetry/drone and telemetry/position, and its address is the \
            peer
            """)
    mutating func framesBecomeTelemetry() throws {
        var link = try driver()
        link.perform(link.machine.start(now: .init(us: 1_000_000)))
        let frames: [any MAVLinkMessage] = [
            Heartbeat(customMode: 0, type: MAVType.quadrotor, autopilot: MAVAutopilot.px4,
                      baseMode: MAVModeFlag.customModeEnabled | MAVModeFlag.safetyArmed, systemStatus: MAVState.active),
            ExtendedSysState(landedState: .inAir),
            GPSRawInt(timeUs: 0, latE7: 525_163_000, lonE7: 133_777_000, altMm: 34_000, fixType: 3,
                      satellitesVisible: 10, hAccMm: 400),
            SysStatus(voltageBatteryMv: 12_000, batteryRemainingPct: 64),
            GlobalPositionInt(timeBootMs: 0, latE7: 525_163_000, lonE7: 133_777_000, altMm: 36_500,
                              relativeAltMm: 2_500, vxCmps: 0, vyCmps: 0, vzCmps: 0, hdgCdeg: 9000),
        ]
        for frame in frames {
            link.datagram(autopilot.encode(frame), from: from, now: .init(us: 1_100_000))
        }
        #expect(link.peer == from)
        let states = try broker.published(matching: Topics.droneState.topic(for: drone)).map {
            try DroneState(decoding: $0.payload)
        }
        let state = try #require(states.last)
        #expect(states.count == 1 && state.sequence == 1)
        #expect(state.batteryPercent == 64 && abs(state.altitudeM - 2.5) < 1e-6)
        let fixes = try broker.published(matching: Topics.position.topic(for: drone)).map {
            try PositionFix(decoding: $0.payload)
        }
        let fix = try #require(fixes.last)
        #expect(fixes.count == 1 && fix.sequence == 1)
        #expect(fix.latitudeDeg == 52.5163 && fix.longitudeDeg == 13.3777 && fix.satellites == 10)
    }

    @Test("a stranger's datagram (another system id) publishes nothing and does not become the peer")
    mutating func strangersAreIgnored() throws {
        var link = try driver()
        link.perform(link.machine.start(now: .init(us: 1_000_000)))
        var stranger = MAVLinkEncoder(systemId: 42, componentId: 1)
        link.datagram(stranger.encode(GlobalPositionInt(timeBootMs: 0, latE7: 1, lonE7: 1, altMm: 0, relativeAltMm: 0,
                                                        vxCmps: 0, vyCmps: 0, vzCmps: 0, hdgCdeg: 0)),
                      from: from, now: .init(us: 1_100_000))
        #expect(link.peer == nil)
        #expect(broker.published(matching: Topics.droneState.topic(for: drone)).isEmpty)
    }
}

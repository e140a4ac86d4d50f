import ARDrone
import Clocks
import Testing
@testable import DroneSimulation

@Suite struct SimulatorSessionTests {
    @Test func bootstrapThenConfigAckThenDemoNavdata() throws {
        var harness = SessionHarness()
        harness.trigger()
        let bootstrap = try #require(try harness.takeNavdata().first)
        #expect(bootstrap.state.contains(.navdataBootstrap))
        #expect(bootstrap.options.isEmpty)
        #expect(bootstrap.encoded().count == 24)

        harness.send([.ctrl(mode: ATControlMode.ack), .config(key: "general:navdata_demo", value: "TRUE")])
        harness.run(seconds: 0.1)
        let acked = try #require(try harness.takeNavdata().last)
        #expect(acked.state.contains(.controlCommandAck))
        #expect(acked.state.contains(.navdataDemo))
        #expect(!acked.state.contains(.navdataBootstrap))

        harness.send([.ctrl(mode: ATControlMode.ack)])
        harness.run(seconds: 0.1)
        let demo = try #require(try harness.takeNavdata().last)
        #expect(!demo.state.contains(.controlCommandAck))
        #expect(demo.options.map(\.tag) == [NavdataTag.demo, NavdataTag.visionDetect])
        #expect(demo.encoded().count == 500)
        #expect(demo.demo?.majorState == FlightState.landed.rawValue)
        #expect(demo.demo?.batteryPercent == 100)
    }

    @Test func navdataGoesToTheLatestTriggerSourceAtAboutFifteenHertz() throws {
        var harness = SessionHarness()
        harness.configureDemo()
        _ = try harness.takeNavdata()
        harness.run(seconds: 1, keepAlive: ATRef.land)
        let packets = try harness.takeNavdata()
        #expect((14...16).contains(packets.count))
        #expect(zip(packets, packets.dropFirst()).allSatisfy { $0.sequence < $1.sequence })
    }

    @Test func navdataOptionsMaskAddsMagnetoAndGPS() throws {
        var harness = SessionHarness()
        harness.configureDemo()
        harness.send([.config(key: "general:navdata_options", value: "138412033")])
        harness.run(seconds: 0.2, keepAlive: ATRef.land)
        let packet = try #require(try harness.takeNavdata().last)
        #expect(packet.options.map(\.tag) == [NavdataTag.demo, NavdataTag.magneto, NavdataTag.gps])
        let gps = try #require(packet.gps)
        #expect(abs(gps.latitudeDeg - DroneHarness.home.latitudeDeg) < 0.001)
        #expect(packet.magneto != nil)
    }

    @Test func comWatchdogBitAfterFiftyMillisecondsOfSilence() throws {
        var harness = SessionHarness()
        harness.configureDemo()
        #expect(!harness.session.stateFlags(now: .init(us: harness.nowUs + 40_000)).contains(.comWatchdog))
        #expect(harness.session.stateFlags(now: .init(us: harness.nowUs + 60_000)).contains(.comWatchdog))
        harness.run(seconds: 0.2)
        let packet = try #require(try harness.takeNavdata().last)
        #expect(packet.state.contains(.comWatchdog))
        harness.send([.comwdg])
        #expect(!harness.session.stateFlags(now: .init(us: harness.nowUs + 10_000)).contains(.comWatchdog))
    }

    @Test func takeoffThroughRefReportsHoveringAndFlyingBit() throws {
        var harness = SessionHarness()
        harness.configureDemo()
        harness.run(seconds: 5, keepAlive: ATRef.takeoff)
        #expect(harness.logs().contains { $0.contains("taking_off → hovering") })
        let packet = try #require(try harness.takeNavdata().last)
        #expect(packet.demo?.majorState == FlightState.hovering.rawValue)
        #expect(packet.state.contains(.flying))
        #expect(abs((packet.demo?.altitudeM ?? 0) - 1) < 0.2)
    }

    /// drone-link writes the controller's ceiling into `control:altitude_max`: full climb never goes above it.
    @Test func altitudeMaxConfigCapsAClimbThatAsksForMore() throws {
        var harness = SessionHarness()
        harness.configureDemo()
        harness.send([.config(key: "control:altitude_max", value: "6000")])
        harness.run(seconds: 5, keepAlive: ATRef.takeoff)
        var highestM = 0.0
        for _ in 0..<200 {
            harness.send([.ref(ATRef.takeoff), .pcmd(flag: 1, roll: 0, pitch: 0, gaz: 1, yaw: 0)])
            harness.run(seconds: 0.1)
            highestM = max(highestM, harness.session.drone.altitudeM)
        }
        #expect(highestM == 6)
        #expect(harness.logs().contains { $0.contains("config control:altitude_max = 6000") })
    }

    /// `control:euler_angle_max` sets the tilt PCMD ±1 stands for, and with it the speed it gives.
    @Test func eulerAngleMaxScalesTiltAndSpeed() {
        var harness = SessionHarness()
        harness.configureDemo()
        let speedAt12 = harness.session.drone.parameters.maxSpeedMps
        harness.send([.config(key: "control:euler_angle_max", value: "\(24 * Double.pi / 180)")])
        #expect(abs(harness.session.drone.parameters.maxTiltDeg - 24) < 1e-9)
        let expected = speedAt12 * 0.445_228_685 / 0.212_556_562  // tan 24° / tan 12°
        #expect(abs(harness.session.drone.parameters.maxSpeedMps - expected) < 1e-6)
        harness.send([.config(key: "control:euler_angle_max", value: "-1")])
        #expect(abs(harness.session.drone.parameters.maxTiltDeg - 24) < 1e-9)
    }

    @Test func emergencyThroughRefCutsMotors() throws {
        var harness = SessionHarness()
        harness.configureDemo()
        harness.run(seconds: 5, keepAlive: ATRef.takeoff)
        harness.send([.ref(ATRef.takeoff | ATRef.emergencyBit)])
        harness.run(seconds: 1, keepAlive: ATRef.land)
        let packet = try #require(try harness.takeNavdata().last)
        #expect(packet.state.contains(.emergency))
        #expect(!packet.state.contains(.flying))
        #expect(harness.session.drone.altitudeM == 0)
    }

    @Test func staleSequenceNumbersAreIgnoredAndOneResets() {
        var harness = SessionHarness()
        harness.configureDemo()
        harness.sequence = 100
        harness.send([.ref(ATRef.takeoff)])
        harness.sequence = 50
        harness.send([.ref(ATRef.land)])
        #expect(harness.session.staleCommandCount == 1)
        #expect(harness.session.drone.isFlyBitHeld)
        harness.sequence = 1
        harness.send([.ref(ATRef.land)])
        #expect(!harness.session.drone.isFlyBitHeld)
        #expect(harness.session.sequenceFilter.lastAccepted == 1)
    }

    @Test func nodeArDroneStyleClientStartingAtZeroWithoutBaseBits() {
        var harness = SessionHarness()
        harness.trigger()
        // node-ar-drone: seq 0 first, REF without the 0x11540000 base, REF and PCMD in one datagram.
        harness.sendRaw("AT*REF=0,512\rAT*PCMD=1,0,0,0,0,0\r")
        #expect(harness.session.staleCommandCount == 1)
        #expect(!harness.session.drone.isFlyBitHeld)
        harness.sendRaw("AT*REF=2,512\rAT*PCMD=3,0,0,0,0,0\r")
        #expect(harness.session.drone.isFlyBitHeld)
        harness.run(seconds: 0.1)
        #expect(harness.session.drone.flightState == .takingOff)
    }

    @Test func linkLossStopsNavdataResetsSequenceHoversThenLands() throws {
        var harness = SessionHarness()
        harness.configureDemo()
        harness.run(seconds: 5, keepAlive: ATRef.takeoff)
        harness.sequence = 5000
        harness.send([.ref(ATRef.takeoff)])
        _ = try harness.takeNavdata()
        harness.run(seconds: 2.5)
        #expect(harness.session.isLinkLost)
        #expect(harness.logs().contains { $0.hasPrefix("link lost") })
        #expect(harness.session.drone.flightState == .hovering)
        #expect(harness.session.drone.minorState == MinorState.hoveringLostCom)
        _ = try harness.takeNavdata()
        harness.run(seconds: 6)
        #expect(try harness.takeNavdata().isEmpty)
        #expect(harness.session.drone.flightState == .landed)
        // The client comes back, starting at a low number again: accepted.
        harness.sequence = 3
        harness.trigger()
        harness.send([.ref(ATRef.land)])
        #expect(!harness.session.isLinkLost)
        #expect(harness.session.sequenceFilter.lastAccepted == 3)
        harness.run(seconds: 0.1, keepAlive: ATRef.land)
        let packet = try #require(try harness.takeNavdata().last)
        #expect(!packet.state.contains(.comLost))
    }

    /// Seen in `make faults`: the trace row written in the tick that declared the loss said "flying".
    @Test func everyTraceRowWithTheLinkLostShowsAHover() throws {
        var harness = SessionHarness()
        harness.configureDemo()
        harness.run(seconds: 5, keepAlive: ATRef.takeoff)
        for _ in 0..<20 {
            harness.send([.ref(ATRef.takeoff), .pcmd(flag: 1, roll: 0, pitch: -0.5, gaz: 0, yaw: 0)])
            harness.run(seconds: 0.05)
        }
        #expect(harness.session.drone.flightState == .flying)
        harness.actions.removeAll()
        harness.run(seconds: 4)
        let rows = harness.actions.compactMap { action -> [Substring]? in
            if case .trace(let row) = action { row.split(separator: ",") } else { nil }
        }
        let lostRows = rows.filter { $0[10] == "1" }
        #expect(!lostRows.isEmpty)
        #expect(lostRows.allSatisfy { $0[5] == "hovering" && $0[11] == "0" },
            "\(lostRows.map { $0.joined(separator: ",") })")
    }

    @Test(arguments: [
        "garbage", "AT*REF=x,1\r", "AT*PCMD=5,1,2\r", "AT*CONFIG=6,\"general:navdata_demo\"\r",
        String(repeating: "AT*COMWDG=7\r", count: 100),
    ])
    func malformedInputIsCountedNotFatal(text: String) {
        var harness = SessionHarness()
        harness.sendRaw(text)
        harness.sendRaw("\u{FF}\u{00}AT*")
        #expect(harness.session.parseErrorCount >= 1)
        harness.run(seconds: 0.1)
    }

    @Test func flatTrimOnTheGroundIsLogged() {
        var harness = SessionHarness()
        harness.send([.ftrim])
        #expect(harness.logs().contains("flat trim done"))
        #expect(harness.session.drone.isFlatTrimmed)
    }

    @Test func traceRowsAreEmittedAtTwentyHertz() {
        var harness = SessionHarness()
        harness.run(seconds: 1)
        let rows = harness.actions.filter { if case .trace = $0 { true } else { false } }
        #expect((19...21).contains(rows.count))
    }
}

import ARDrone
import QuadProtocol
import Testing

@Suite struct NavdataPacketConversionTests {
    @Test func demoPacketBecomesDroneState() throws {
        let packet = try NavdataPacket.decode(try Fixture.bytes("demo-default.hex"))
        let state = try #require(packet.droneState(sequence: 9, stamp: .init(us: 1_700_000_000_000_000)))
        #expect(state.sequence == 9)
        #expect(state.timestampUs == 1_700_000_000_000_000)
        #expect(state.navdataSequence == 1234)
        #expect(state.stateBits == 0x0F80_0411)
        #expect(state.controlState == .hovering)
        #expect(state.controlMinorState == 0)
        #expect(state.batteryPercent == 87)
        #expect(state.altitudeM == 1.52)
        #expect(state.pitchDeg == -1.2345)
        #expect(state.rollDeg == 2.50025)
        #expect(state.yawDeg == -90)
        #expect(state.velocityXMps == 0.1235)
        #expect(state.velocityYMps == -0.04525)
        #expect(state.magnetoHeadingDeg == nil)
        #expect(packet.positionFix(sequence: 1, stamp: .init(us: 0)) == nil)
    }

    @Test func magnetoHeadingIsFoldedIntoACompassRange() throws {
        let packet = try NavdataPacket.decode(try Fixture.bytes("demo-magneto-gps.hex"))
        let state = try #require(packet.droneState(sequence: 1, stamp: .init(us: 0)))
        #expect(state.controlState == .flying)
        #expect(state.magnetoHeadingDeg == 12)  // 372° unwrapped
    }

    @Test(arguments: [(Float(-90), Float(270)), (-725.5, 354.5), (360, 0), (0, 0), (-0.000001, 0), (719, 359)])
    func compassFolding(unwrapped: Float, compass: Float) throws {
        let packet = NavdataPacket(state: [], sequence: 1, options: [
            .demo(NavdataDemo(majorState: 2, batteryPercent: 1, pitchDeg: 0, rollDeg: 0, yawDeg: 0, altitudeM: 0,
                              velocityXMps: 0, velocityYMps: 0, velocityZMps: 0)),
            .magneto(NavdataMagneto(headingFusionUnwrappedDeg: unwrapped)),
        ])
        #expect(packet.droneState(sequence: 1, stamp: .init(us: 0))?.magnetoHeadingDeg == compass)
    }

    @Test func bootstrapHasNoDroneState() throws {
        let packet = try NavdataPacket.decode(try Fixture.bytes("bootstrap.hex"))
        #expect(packet.droneState(sequence: 1, stamp: .init(us: 0)) == nil)
    }

    @Test func oddDemoValuesDoNotTrap() {
        let packet = NavdataPacket(state: [], sequence: 1, options: [
            .demo(NavdataDemo(controlState: 0x0102_0000, batteryPercent: 4000, pitchMilliDeg: 0, rollMilliDeg: 0,
                              yawMilliDeg: 0, altitudeMm: -5, velocityXMmps: 0, velocityYMmps: 0, velocityZMmps: 0)),
            .magneto(NavdataMagneto(headingFusionUnwrappedDeg: .nan)),
        ])
        let state = packet.droneState(sequence: 1, stamp: .init(us: 0))
        #expect(state?.controlState == .unknown)
        #expect(state?.batteryPercent == 100)
        #expect(state?.altitudeM == -0.005)
        #expect(state?.magnetoHeadingDeg == nil)
    }

    @Test func gpsFixBecomesPositionFix() throws {
        let packet = try NavdataPacket.decode(try Fixture.bytes("demo-magneto-gps.hex"))
        let fix = try #require(packet.positionFix(sequence: 3, stamp: .init(us: 42)))
        #expect(fix == PositionFix(sequence: 3, timestampUs: 42, latitudeDeg: 48.858222, longitudeDeg: 2.2945,
                                   altitudeM: 35.5, headingDeg: nil, horizontalAccuracyM: 3.5, satellites: 9,
                                   source: .droneGPS))
    }

    static let noFix: [(String, NavdataGPS)] = [
        ("no data", NavdataGPS(latitudeDeg: 48.8, longitudeDeg: 2.3, dataAvailable: 0)),
        ("zero zero", NavdataGPS(latitudeDeg: 0, longitudeDeg: 0)),
        ("latitude out of range", NavdataGPS(latitudeDeg: 91, longitudeDeg: 2.3)),
        ("longitude out of range", NavdataGPS(latitudeDeg: 48.8, longitudeDeg: -180.5)),
        ("NaN", NavdataGPS(latitudeDeg: .nan, longitudeDeg: 2.3)),
        ("infinite", NavdataGPS(latitudeDeg: 48.8, longitudeDeg: .infinity)),
    ]

    @Test(arguments: noFix)
    func noPositionWithoutAFix(name: String, gps: NavdataGPS) {
        let packet = NavdataPacket(state: [], sequence: 1, options: [.gps(gps)])
        #expect(packet.positionFix(sequence: 1, stamp: .init(us: 0)) == nil, "\(name)")
        #expect(!gps.hasFix)
    }

    @Test func fixWithoutAccuracyOrElevation() {
        let gps = NavdataGPS(latitudeDeg: -33.8568, longitudeDeg: 151.2153, elevationM: .nan, ehpe: 0,
                             satelliteCount: 300)
        let fix = NavdataPacket(state: [], sequence: 1, options: [.gps(gps)])
            .positionFix(sequence: 1, stamp: .init(us: 0))
        #expect(fix?.altitudeM == nil)
        #expect(fix?.horizontalAccuracyM == nil)
        #expect(fix?.satellites == 255)
        #expect(fix?.latitudeDeg == -33.8568)
    }
}

import ARDrone
import Testing

@Suite struct NavdataPacketDecodingTests {
    @Test func realBootstrapCapture() throws {
        let packet = try NavdataPacket.decode(try Fixture.bytes("bootstrap.hex"))
        #expect(packet.state.rawValue == 0x4F80_0C10)
        #expect(packet.state.contains(.navdataBootstrap))
        #expect(packet.state.contains(.navdataDemo))
        #expect(packet.state.contains(.comWatchdog))
        #expect(packet.state.contains(.altitudeControlActive))
        #expect(!packet.state.contains(.controlCommandAck))
        #expect(!packet.state.contains(.flying))
        #expect(!packet.state.contains(.emergency))
        #expect(packet.sequence == 1)
        #expect(packet.visionFlag == 0)
        #expect(packet.options.isEmpty)
        #expect(packet.demo == nil)
    }

    @Test func defaultDemoPacket() throws {
        let bytes = try Fixture.bytes("demo-default.hex")
        #expect(bytes.count == 500)
        let packet = try NavdataPacket.decode(bytes)
        #expect(packet.state == [.flying, .altitudeControlActive, .navdataDemo, .picVersionOK, .atCodecThreadOn,
                                 .navdataThreadOn, .videoThreadOn, .acquisitionThreadOn])
        #expect(packet.sequence == 1234)
        #expect(packet.visionFlag == 1)
        #expect(packet.options.map(\.tag) == [0, 16])
        let demo = try #require(packet.demo)
        #expect(demo.majorState == 4)
        #expect(demo.minorState == 0)
        #expect(demo.batteryPercent == 87)
        #expect(demo.pitchDeg == -1.2345)
        #expect(demo.rollDeg == 2.50025)
        #expect(demo.yawDeg == -90)
        #expect(demo.altitudeMm == 1520)
        #expect(demo.altitudeM == 1.52)
        #expect(demo.velocityXMps == 0.1235)
        #expect(demo.velocityYMps == -0.04525)
        #expect(demo.velocityZMps == 0)
        #expect(demo.frameIndex == 42)
        #expect(packet.options[1] == .emptyVisionDetect)
    }

    @Test func demoMagnetoAndGPS() throws {
        let packet = try NavdataPacket.decode(try Fixture.bytes("demo-magneto-gps.hex"))
        #expect(packet.sequence == 5000)
        #expect(!packet.state.contains(.navdataDemo))
        let demo = try #require(packet.demo)
        #expect(demo.majorState == 3)
        #expect(demo.pitchDeg == -5)
        #expect(demo.altitudeM == 2.5)
        #expect(demo.velocityZMps == -0.1)

        let magneto = try #require(packet.magneto)
        #expect([magneto.countX, magneto.countY, magneto.countZ] == [100, -200, 300])
        #expect(magneto.raw == MagnetoVector(x: 1, y: 2, z: 3))
        #expect(magneto.offset == MagnetoVector(x: 7, y: 8, z: 9))
        #expect(magneto.headingUnwrappedDeg == 370.5)
        #expect(magneto.headingFusionUnwrappedDeg == 372)
        #expect(magneto.calibrationOK == 1)
        #expect(magneto.state == 2)
        #expect(magneto.errorVariance == 0.25)

        let gps = try #require(packet.gps)
        #expect(gps.latitudeDeg == 48.858222)
        #expect(gps.longitudeDeg == 2.2945)
        #expect(gps.elevationM == 35.5)
        #expect(gps.hdop == 0.9)
        #expect(gps.dataAvailable == 1)
        #expect(gps.gpsState == 1)
        #expect(gps.longitudeFusedDeg == 2.294)
        #expect(gps.trajectoryTerms == (0..<10).map { Float($0) * 0.5 })
        #expect(gps.pdop == 1.4)
        #expect(gps.speed == 2.5)
        #expect(gps.lastFrameTimestamp == 0x0020_0010)
        #expect(gps.degree == 90.5)
        #expect(gps.ehpe == 3.5)
        #expect(gps.satelliteCount == 9)
        #expect(gps.channels.count == 12)
        #expect(gps.channels.first == GPSChannel(satellite: 1, cn0: 30))
        #expect(gps.channels.last == GPSChannel(satellite: 12, cn0: 41))
        #expect(gps.ephemerisStatus == 0xFF)
        #expect(gps.velocityYTrajectory == -0.5)
        #expect(gps.firmwareStatus == 7)
    }

    @Test func corruptedChecksumReportsBothValues() throws {
        #expect(throws: NavdataError.checksumMismatch(expected: 3165, computed: 3166)) {
            try NavdataPacket.decode(try Fixture.bytes("corrupt-checksum.hex"))
        }
    }

    @Test func truncatedInsideAnOption() throws {
        #expect(throws: NavdataError.optionOverruns(tag: 16, size: 328, remaining: 136)) {
            try NavdataPacket.decode(try Fixture.bytes("truncated-300.hex"))
        }
    }

    @Test func truncatedInsideTheHeader() throws {
        #expect(throws: NavdataError.tooShort(byteCount: 20, minimum: 24)) {
            try NavdataPacket.decode(try Fixture.bytes("truncated-20.hex"))
        }
    }

    @Test func acceptsNodeArDroneAlternateMagic() throws {
        var bytes = try Fixture.bytes("bootstrap.hex")
        bytes[0] = 0x89
        // The magic is covered by the checksum: 0x89 − 0x88 = 1 more.
        bytes[20] = 0xA7
        let packet = try NavdataPacket.decode(bytes)
        #expect(packet.sequence == 1)
    }
}

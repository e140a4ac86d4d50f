import ARDrone
import Testing

@Suite struct NavdataPacketEncodingTests {
    static let hovering = DroneStateFlags([.flying, .altitudeControlActive, .navdataDemo, .picVersionOK,
                                           .atCodecThreadOn, .navdataThreadOn, .videoThreadOn, .acquisitionThreadOn])

    @Test func bootstrapMatchesTheRealCapture() throws {
        let packet = NavdataPacket(state: DroneStateFlags(rawValue: 0x4F80_0C10), sequence: 1)
        #expect(packet.encoded() == (try Fixture.bytes("bootstrap.hex")))
    }

    @Test func defaultDemoMatchesTheFixtureByteForByte() throws {
        let demo = NavdataDemo(controlState: 4 << 16, batteryPercent: 87, pitchMilliDeg: -1234.5,
                               rollMilliDeg: 2500.25, yawMilliDeg: -90000, altitudeMm: 1520, velocityXMmps: 123.5,
                               velocityYMmps: -45.25, velocityZMmps: 0, frameIndex: 42)
        let packet = NavdataPacket(state: Self.hovering, sequence: 1234, visionFlag: 1,
                                   options: [.demo(demo), .emptyVisionDetect])
        let bytes = packet.encoded()
        #expect(bytes.count == 500)
        #expect(bytes == (try Fixture.bytes("demo-default.hex")))
    }

    @Test func sizesAreThoseOfTheRealDrone() {
        let packet = NavdataPacket(state: [], sequence: 1, options: [
            .demo(NavdataDemo(majorState: 2, batteryPercent: 50, pitchDeg: 0, rollDeg: 0, yawDeg: 0, altitudeM: 0,
                              velocityXMps: 0, velocityYMps: 0, velocityZMps: 0)),
            .emptyVisionDetect,
            .magneto(NavdataMagneto(headingFusionUnwrappedDeg: 10)),
            .gps(NavdataGPS(latitudeDeg: 1, longitudeDeg: 2)),
            .time(NavdataTime(seconds: 1, microseconds: 2)),
            .wifi(NavdataWifi(linkQuality: 3)),
        ])
        let bytes = packet.encoded()
        var sizes: [Int] = []
        var offset = 16
        while offset + 4 <= bytes.count {
            let size = Int(bytes[offset + 2]) | Int(bytes[offset + 3]) << 8
            sizes.append(size)
            offset += size
        }
        #expect(sizes == [148, 328, 83, 216, 8, 8, 8])
        #expect(offset == bytes.count)
    }

    @Test(arguments: ["bootstrap.hex", "demo-default.hex", "demo-magneto-gps.hex"])
    func decodeEncodeDecodeRoundTrips(fixture: String) throws {
        let packet = try NavdataPacket.decode(try Fixture.bytes(fixture))
        #expect(try NavdataPacket.decode(packet.encoded()) == packet)
    }

    @Test func encodeDecodeRoundTripsEveryOption() throws {
        var channels = (0..<12).map { GPSChannel(satellite: UInt8($0), cn0: UInt8(40 - $0)) }
        channels[3] = GPSChannel(satellite: 255, cn0: 0)
        let gps = NavdataGPS(latitudeDeg: -33.8568, longitudeDeg: 151.2153, elevationM: 12.25, hdop: 1.5,
                             dataAvailable: 1, gpsState: 3, trajectoryTerms: (0..<10).map { -Float($0) },
                             speed: 4.5, degree: 270, satelliteCount: 7, channels: channels,
                             firmwareStatus: 0xDEAD_BEEF)
        let magneto = NavdataMagneto(countX: -1, countY: 2, countZ: -3, raw: MagnetoVector(x: 1, y: 2, z: 3),
                                     headingFusionUnwrappedDeg: -725.5, calibrationOK: 0, state: 9,
                                     errorVariance: 0.125)
        let packet = NavdataPacket(state: [.emergency, .comWatchdog, .lowBattery], sequence: .max, visionFlag: 7,
                                   options: [
                                       .time(NavdataTime(rawValue: 0xFFFF_FFFF)),
                                       .demo(NavdataDemo(controlState: 0xFFFF_FFFF, batteryPercent: 3,
                                                         pitchMilliDeg: .infinity, rollMilliDeg: -0.0,
                                                         yawMilliDeg: 179_999, altitudeMm: .min,
                                                         velocityXMmps: 1, velocityYMmps: 2, velocityZMmps: 3)),
                                       .raw(tag: 28, payload: [1, 2, 3]),
                                       .magneto(magneto),
                                       .gps(gps),
                                       .wifi(NavdataWifi(linkQuality: 1)),
                                       .raw(tag: 27, payload: Array(repeating: 5, count: 8)),
                                   ])
        #expect(try NavdataPacket.decode(packet.encoded()) == packet)
    }

    @Test func rawChecksumOptionsAreNotWritten() throws {
        let packet = NavdataPacket(state: [], sequence: 2, options: [.raw(tag: 0xFFFF, payload: [0, 0, 0, 0])])
        #expect(packet.encoded().count == 24)
        #expect(try NavdataPacket.decode(packet.encoded()).options.isEmpty)
    }

    @Test func siInitialiserConvertsToWireUnits() {
        let demo = NavdataDemo(majorState: 3, minorState: 4, batteryPercent: 80, pitchDeg: -2.5, rollDeg: 1.25,
                               yawDeg: 90, altitudeM: 1.2345, velocityXMps: 0.5, velocityYMps: -0.25,
                               velocityZMps: 1)
        #expect(demo.controlState == 0x0003_0004)
        #expect(demo.pitchMilliDeg == -2500)
        #expect(demo.rollMilliDeg == 1250)
        #expect(demo.yawMilliDeg == 90000)
        #expect(demo.altitudeMm == 1235)
        #expect(demo.velocityXMmps == 500)
        #expect(demo.velocityZMmps == 1000)
        let huge = NavdataDemo(majorState: 0, batteryPercent: 0, pitchDeg: 0, rollDeg: 0, yawDeg: 0,
                               altitudeM: .nan, velocityXMps: 0, velocityYMps: 0, velocityZMps: 0)
        #expect(huge.altitudeMm == 0)
        let high = NavdataDemo(majorState: 0, batteryPercent: 0, pitchDeg: 0, rollDeg: 0, yawDeg: 0,
                               altitudeM: 1e12, velocityXMps: 0, velocityYMps: 0, velocityZMps: 0)
        #expect(high.altitudeMm == .max)
    }
}

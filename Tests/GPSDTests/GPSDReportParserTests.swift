import Clocks
import Testing
@testable import GPSD

@Suite struct GPSDReportParserTests {
    func parse(_ line: String) throws -> GPSDReport {
        try GPSDReportParser.parse(line: Array(line.utf8))
    }

    @Test func watchCommandIsExactlyTheDocumentedBytes() {
        #expect(GPSDCommand.watch == Array(#"?WATCH={"enable":true,"json":true};"#.utf8))
        #expect(GPSDStream().openingCommand == GPSDCommand.watch)
    }

    @Test func version() throws {
        let r = try parse(#"{"class":"VERSION","release":"3.22","rev":"3.22","proto_major":3,"proto_minor":14}"#)
        #expect(r == .version(GPSDVersion(release: "3.22", protocolMajor: 3, protocolMinor: 14)))
    }

    @Test func devicesAndWatch() throws {
        let d = try parse(
            #"{"class":"DEVICES","devices":[{"class":"DEVICE","path":"/dev/ttyACM0","driver":"u-blox"},{"x":1}]}"#)
        #expect(d == .devices([GPSDDevice(path: "/dev/ttyACM0", driver: "u-blox")]))
        #expect(try parse(#"{"class":"DEVICES","devices":[]}"#) == .devices([]))
        let w = try parse(#"{"class":"WATCH","enable":true,"json":true,"nmea":false}"#)
        #expect(w == .watch(GPSDWatch(enable: true, json: true)))
    }

    @Test func errorAndUnknownClasses() throws {
        #expect(try parse(#"{"class":"ERROR","message":"Unrecognized request 'FOO'"}"#)
            == .error(message: "Unrecognized request 'FOO'"))
        #expect(try parse(#"{"class":"GST","rms":1.2}"#) == .other(className: "GST"))
    }

    @Test func sky() throws {
        let s = try parse(#"{"class":"SKY","hdop":0.9,"satellites":[{"PRN":1,"used":true},{"PRN":2,"used":false},"#
            + #"{"PRN":3,"used":true}]}"#)
        #expect(s == .sky(GPSDSky(satellitesUsed: 2, satellitesVisible: 3, hdop: 0.9)))
        let t = try parse(#"{"class":"SKY","nSat":12,"uSat":7}"#)
        #expect(t == .sky(GPSDSky(satellitesUsed: 7, satellitesVisible: 12, hdop: nil)))
    }

    @Test func threeDimensionalTPVIsAFix() throws {
        let line = #"{"class":"TPV","device":"/dev/pts/1","mode":3,"time":"2024-05-01T12:00:01.000Z","lat":52.5163,"#
            + #""lon":13.377720667,"altHAE":78.7,"altMSL":34.1,"alt":34.1,"track":90.0,"speed":1.4,"eph":17.1,"#
            + #""epx":8.2,"epy":9.5}"#
        guard case .tpv(let tpv) = try parse(line) else { Issue.record("not a TPV"); return }
        let expected = GPSFix(
            dimension: .threeD, latitudeDeg: 52.5163, longitudeDeg: 13.377720667, altitudeM: 34.1, trackDeg: 90,
            speedMps: 1.4, ephM: 17.1, epxM: 8.2, epyM: 9.5, time: "2024-05-01T12:00:01.000Z",
            stamp: WallInstant(us: 1_714_564_801_000_000))
        #expect(tpv.fixStatus == .fix(expected))
    }

    @Test func oldGpsdAltFieldIsUsedWhenAltMSLIsAbsent() throws {
        guard case .tpv(let tpv) = try parse(#"{"class":"TPV","mode":3,"lat":1,"lon":2,"alt":12.5}"#) else {
            Issue.record("not a TPV"); return
        }
        #expect(tpv.altitudeMSLM == 12.5)
    }

    @Test func twoDimensionalFixHasNoAltitude() throws {
        guard case .tpv(let tpv) = try parse(#"{"class":"TPV","mode":2,"lat":52.5,"lon":13.4,"altMSL":30}"#),
              case .fix(let fix) = tpv.fixStatus
        else { Issue.record("expected a 2D fix"); return }
        #expect(fix.dimension == .twoD)
        #expect(fix.altitudeM == nil)
    }

    @Test(arguments: [
        (#"{"class":"TPV","mode":1,"time":"2024-05-01T12:00:12.000Z"}"#, GPSFixStatus.NoFixReason.mode(1)),
        (#"{"class":"TPV","mode":0,"lat":52.5,"lon":13.4}"#, .mode(0)),
        (#"{"class":"TPV","lat":52.5,"lon":13.4}"#, .mode(0)),
        (#"{"class":"TPV","mode":"3","lat":52.5,"lon":13.4}"#, .mode(0)),
        (#"{"class":"TPV","mode":3,"lon":13.4}"#, .missingLatitude),
        (#"{"class":"TPV","mode":3,"lat":52.5}"#, .missingLongitude),
        (#"{"class":"TPV","mode":3,"lat":"52.5","lon":13.4}"#, .missingLatitude),
        (#"{"class":"TPV","mode":3,"lat":null,"lon":13.4}"#, .missingLatitude),
        (#"{"class":"TPV","mode":3,"lat":1e400,"lon":13.4}"#, .missingLatitude),
        (#"{"class":"TPV","mode":3,"lat":91,"lon":13.4}"#, .latitudeOutOfRange(91)),
        (#"{"class":"TPV","mode":3,"lat":52.5,"lon":-180.5}"#, .longitudeOutOfRange(-180.5)),
    ])
    func badTPVIsNeverAFix(_ line: String, _ reason: GPSFixStatus.NoFixReason) throws {
        guard case .tpv(let tpv) = try parse(line) else { Issue.record("not a TPV"); return }
        #expect(tpv.fixStatus == .noFix(reason))
    }

    @Test func implausibleSecondaryFieldsAreDropped() throws {
        let line = #"{"class":"TPV","mode":3,"lat":1,"lon":2,"track":400,"speed":-1,"eph":-3,"epx":"x","epy":4}"#
        guard case .tpv(let tpv) = try parse(line), case .fix(let fix) = tpv.fixStatus else {
            Issue.record("expected a fix"); return
        }
        #expect(fix.trackDeg == nil && fix.speedMps == nil && fix.ephM == nil && fix.epxM == nil && fix.epyM == 4)
    }

    @Test(arguments: [
        (#"[1,2]"#, GPSDParseError.notAnObject(found: "array")),
        (#"{"mode":3}"#, .missingClass),
        (#"{"class":7}"#, .classNotAString(found: "number")),
        (#"{"class":"TPV""#, .invalidJSON(.invalidJSON(offset: 14, reason: "expected '}'"))),
    ])
    func malformedLinesAreTypedErrors(_ line: String, _ error: GPSDParseError) {
        #expect(throws: error) { try parse(line) }
    }

    @Test func everyLineOfARealGpsdSessionParses() throws {
        // Captured from gpsd 3.22 under gpsfake replaying walk.nmea.
        var fixes = 0, noFixes = 0, others = 0
        for line in try Fixture.lines("gpsd-walk.jsonl") {
            switch try parse(line) {
            case .tpv(let tpv):
                if case .fix = tpv.fixStatus { fixes += 1 } else { noFixes += 1 }
            default: others += 1
            }
        }
        #expect(fixes == 26)  // gpsd also reports the first epoch once as a 2D fix, before GGA adds altitude.
        #expect(noFixes == 5)
        #expect(others == 6)
    }
}

import Navigation
import Testing
@testable import GroundStation

@Suite struct TargetInputTests {
    @Test(arguments: [
        (["52.5163", "13.3777"], 52.5163, 13.3777),
        (["-33.86", "151.2"], -33.86, 151.2),
        (["-33.86,-151.2"], -33.86, -151.2),
        (["52.5,-0.1"], 52.5, -0.1),
    ])
    func decimalDegreesIncludingNegatives(_ words: [String], _ lat: Double, _ lon: Double) throws {
        #expect(try CoordinateInput.parse(words) == GeoPoint(latitudeDeg: lat, longitudeDeg: lon))
    }

    @Test(arguments: [
        (["52.5°", "13.4"], "bad position '52.5°,13.4': latitude '52.5°' is not a decimal number; "
            + "use decimal degrees: 52.5° is 52.5"),
        (["52°31'12\"N", "13°22'40\"E"], "bad position '52°31'12\"N,13°22'40\"E': latitude '52°31'12\"N' is not a "
            + "decimal number; use decimal degrees: 52°31'12\"N is 52.52"),
        (["1", "2", "--forse"], "unknown option '--forse'"),
        (["52.5\u{1B}[2J", "1"], "bad position '52.5?[2J,1': latitude '52.5?[2J' is not a decimal number"),
        (["-nan", "1"], "bad position '-nan,1': latitude '-nan' is not a finite number"),
    ])
    func errorsKeepWhatWasTypedAndHint(_ words: [String], _ message: String) {
        #expect(throws: CoordinateInput.Failure(message)) { try CoordinateInput.parse(words) }
    }

    @Test(arguments: [
        ("52°31'12\"N", 52.52), ("13°22'40\"E", 13.377778), ("33°51'36\"S", -33.86), ("W0°6'", -0.1),
        ("-52°30'", -52.5), ("52.5°", 52.5), ("52 31 12 N", 52.52),
    ])
    func degreesMinutesSecondsAreRecognised(_ text: String, _ value: Double) throws {
        let decoded = try #require(DegreesMinutesSeconds.decimalDegrees(text))
        #expect(abs(decoded - value) < 1e-6)
    }

    @Test(arguments: ["52.5", "-33.86", "abc", "52°61'", "-33°S", "", "°"])
    func notDegreesMinutesSeconds(_ text: String) {
        #expect(DegreesMinutesSeconds.decimalDegrees(text) == nil)
    }

    static let drone = GeoPoint(latitudeDeg: 52.5163, longitudeDeg: 13.3777)
    static let fromDrone = TargetPlausibility.Reference(point: drone, name: "the drone", limitM: 200)

    @Test func swappedLatitudeAndLongitudeAreCaughtWithTheFix() throws {
        let swapped = GeoPoint(latitudeDeg: 13.3777, longitudeDeg: 52.5163)
        let verdict = TargetPlausibility.check(swapped, against: Self.fromDrone)
        guard case .far(let distanceM, let fix, _) = verdict else { Issue.record("\(verdict)"); return }
        #expect(distanceM > 5_000_000)
        #expect(fix == Self.drone)
        let warning = try #require(TargetPlausibility.warning(swapped, verdict, reference: Self.fromDrone))
        #expect(warning.hasPrefix("13.3777, 52.5163 is "))
        #expect(warning.contains(" km from the drone (limit 200.0 m); did you swap latitude and longitude? "
            + "'target 52.5163 13.3777' is 0.0 m from it"), "\(warning)")
    }

    @Test func farButNotSwappedAndNearAndUnchecked() {
        let sydney = GeoPoint(latitudeDeg: -33.86, longitudeDeg: 151.2)
        #expect(TargetPlausibility.check(sydney, against: Self.fromDrone)
            .isFar(withSwap: false))
        let near = GeoPoint(latitudeDeg: 52.5173, longitudeDeg: 13.3777)
        guard case .near(let m) = TargetPlausibility.check(near, against: Self.fromDrone) else {
            Issue.record("expected near"); return
        }
        #expect(abs(m - 111.3) < 0.1)
        let tight = TargetPlausibility.Reference(point: Self.drone, name: "the drone", limitM: 100)
        #expect(TargetPlausibility.check(near, against: tight).isFar(withSwap: false))
        #expect(TargetPlausibility.check(near, against: nil) == .unchecked)
        let lastTarget = TargetPlausibility.Reference(point: Self.drone, name: "the controller's current target",
                                                      limitM: 10_000, note: "drone position unknown")
        let sydneyFar = TargetPlausibility.check(sydney, against: lastTarget)
        #expect(TargetPlausibility.warning(sydney, sydneyFar, reference: lastTarget)?.hasSuffix(
            " km from the controller's current target (limit 10.0 km; drone position unknown)") == true)
        // Negative coordinates near a drone in Sydney are fine.
        let sydneyRef = TargetPlausibility.Reference(point: GeoPoint(latitudeDeg: -33.8601, longitudeDeg: 151.2001),
                                                     name: "the drone", limitM: 200)
        #expect(TargetPlausibility.warning(sydney, TargetPlausibility.check(sydney, against: sydneyRef),
                                           reference: sydneyRef) == nil)
    }
}

extension TargetPlausibility.Verdict {
    func isFar(withSwap: Bool) -> Bool {
        guard case .far(_, let swapped, _) = self else { return false }
        return (swapped != nil) == withSwap
    }
}

import ArgumentParser
import CommandLineSupport
import DroneSimulation
import Navigation
import Testing
@testable import DroneSimKit

@Suite("drone-sim options")
struct DroneSimOptionTests {
    @Test("--home takes a southern/western LAT,LON in both spellings", arguments: bothSpellings("--home",
        "-16.5,179.99985"))
    func negativeHome(_ arguments: [String]) throws {
        let sim = try DroneSimCommand.parse(arguments)
        #expect(sim.home.point == GeoPoint(latitudeDeg: -16.5, longitudeDeg: 179.99985))
    }

    @Test("--home -33.86,-151.2: both numbers negative")
    func bothNegative() throws {
        #expect(try DroneSimCommand.parse(["--home", "-33.86,-151.2"]).home.point
            == GeoPoint(latitudeDeg: -33.86, longitudeDeg: -151.2))
    }

    @Test("--heading takes a negative angle", arguments: bothSpellings("--heading", "-90"))
    func negativeHeading(_ arguments: [String]) throws {
        #expect(try DroneSimCommand.parse(arguments).heading == -90)
    }

    @Test("--wind takes a negative direction and a leading '-' reaches the speed check")
    func wind() throws {
        #expect(try DroneSimCommand.parse(["--wind", "2,-90"]).wind.wind == Wind(speedMps: 2, fromDeg: -90))
        let message = parseError(DroneSimCommand.self, ["--wind", "-2,90"]) ?? ""
        #expect(message.contains("invalid for '--wind"), "\(message)")
        expectNegativeReaches(DroneSimCommand.self, "--wind", "-2,90")
    }

    @Test("every numeric option reaches its own check with a negative value",
          arguments: ["--at-port", "--navdata-port", "--gps-noise", "--battery-minutes", "--seed", "--drop-rate",
                      "--physics-hz", "--navdata-hz", "--heading", "--home", "--position-after"])
    func numericOptions(_ option: String) {
        expectNegativeReaches(DroneSimCommand.self, option, option == "--home" ? "-1,-1" : "-1")
    }

    @Test("--position-after: seconds in 0…600, for the MAVLink face only")
    func positionAfter() throws {
        #expect(try DroneSimCommand.parse(["--protocol", "mavlink", "--position-after", "20"]).positionAfter == 20)
        #expect(try DroneSimCommand.parse([]).positionAfter == nil)
        for bad in [["--protocol", "mavlink", "--position-after", "-1"], ["--protocol", "mavlink", "--position-after",
                                                                         "nan"], ["--position-after", "5"]] {
            let message = parseError(DroneSimCommand.self, bad) ?? ""
            #expect(message.contains("--position-after"), "\(bad): \(message)")
        }
    }

    @Test("default home is Pariser Platz, what make demo and docs/flying.md's run by hand fly from")
    func defaultHome() throws {
        #expect(try DroneSimCommand.parse([]).home.point == SimulatorConfiguration.defaultHome)
        #expect(SimulatorConfiguration.defaultHome == GeoPoint(latitudeDeg: 52.5163, longitudeDeg: 13.3777))
    }

    @Test("--help shows defaults as typed: 127.0.0.1, 52.5163,13.3777, 0,0")
    func helpDefaultsAreTyped() {
        let help = DroneSimCommand.helpMessage(columns: 200)
        #expect(help.contains("(default: 127.0.0.1)"), "\(help)")
        #expect(help.contains("(default: 52.5163,13.3777)"), "\(help)")
        #expect(help.contains("(default: 0,0)"), "\(help)")
        #expect(!help.contains("Option("), "\(help)")
        for value in helpDefaults(help) { #expect(!value.contains("("), "\(value)") }
    }

    @Test("the parsed defaults round-trip through their help text")
    func defaultsRoundTrip() throws {
        let sim = try DroneSimCommand.parse([])
        #expect(ListenOption(argument: sim.listen.description)?.address == sim.listen.address)
        #expect(CoordinateArgument(argument: sim.home.description) == sim.home)
        #expect(WindOption(argument: sim.wind.description)?.wind == sim.wind.wind)
    }
}

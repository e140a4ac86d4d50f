import QuadProtocol
import Testing

@Suite("Topics: fleet-wide filters and rewriting")
struct TopicsFiltersTests {
    @Test("the recorded filters match the logged topics of any drone, and nothing twice")
    func recordedFilters() {
        #expect(Topics.recordedFilters == [
            "quad/+/telemetry/#", "quad/+/status/#", "quad/+/target", "quad/+/command", "quad/+/pilot/#",
            "quad/+/airspace/#",
        ])
        #expect(Set(Topics.recordedFilters).count == Topics.recordedFilters.count)
    }

    @Test("the recorded filters of one drone name only that drone")
    func recordedFiltersOfOneDrone() throws {
        let drone = try #require(DroneID(rawValue: "drone9"))
        #expect(Topics.recordedFilters(drone: drone) == [
            "quad/drone9/telemetry/#", "quad/drone9/status/#", "quad/drone9/target", "quad/drone9/command",
            "quad/drone9/pilot/#", "quad/drone9/airspace/#",
        ])
    }

    @Test("narrowing a tail filter to one drone", arguments: [
        ("#", "quad/drone9/#"), ("quad/#", "quad/drone9/#"), ("quad/+/telemetry/#", "quad/drone9/telemetry/#"),
        ("quad/drone9/target", "quad/drone9/target"), ("quad/drone1/target", nil), ("replay/#", nil),
        ("quad/+", nil),
    ] as [(String, String?)])
    func restricting(filter: String, expected: String?) throws {
        let drone = try #require(DroneID(rawValue: "drone9"))
        #expect(Topics.restricting(filter, to: drone) == expected)
    }

    @Test("replayed topics live under their own root, outside quad/")
    func replayed() {
        #expect(Topics.replayed("quad/drone1/command") == "replay/quad/drone1/command")
        #expect(Topics.replayedEverything == "replay/#")
        #expect(!Topics.replayed("quad/drone1/command").hasPrefix("quad/"))
    }

    @Test("shared subscription filter")
    func shared() {
        #expect(Topics.shared("quad/+/target", group: "loggers") == "$share/loggers/quad/+/target")
    }

    @Test("share group names are one level without wildcards", arguments: [
        ("loggers", true), ("", false), ("a/b", false), ("a+", false), ("#", false),
    ])
    func shareGroup(group: String, valid: Bool) {
        #expect(Topics.isValidShareGroup(group) == valid)
    }

    @Test("status topics", arguments: [
        ("quad/drone1/status/navigator", true), ("quad/drone1/status/location-broadcaster/phone", true),
        ("quad/drone1/status", false), ("quad/drone1/telemetry/drone", false), ("x/drone1/status/a", false),
    ])
    func status(topic: String, isStatus: Bool) {
        #expect(Topics.isStatus(topic) == isStatus)
    }

    @Test("replacing the drone level keeps the rest of the topic")
    func replacingDrone() throws {
        let other = try #require(DroneID(rawValue: "replay1"))
        #expect(Topics.replacingDrone(in: "quad/drone1/telemetry/drone", with: other) == "quad/replay1/telemetry/drone")
        #expect(Topics.replacingDrone(in: "quad/drone1/status/a/b", with: other) == "quad/replay1/status/a/b")
        #expect(Topics.replacingDrone(in: "other/drone1/target", with: other) == nil)
        #expect(Topics.replacingDrone(in: "quad/drone1", with: other) == nil)
    }
}

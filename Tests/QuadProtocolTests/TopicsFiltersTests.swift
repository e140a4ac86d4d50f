import QuadProtocol
import Testing

@Suite("Topics: fleet-wide filters and rewriting")
struct TopicsFiltersTests {
    @Test("the recorded filters match the logged topics of any drone, and nothing twice")
    func recordedFilters() {
        #expect(Topics.recordedFilters == [
            "quad/+/telemetry/#", "quad/+/status/#", "quad/+/target", "quad/+/command", "quad/+/pilot/#",
        ])
        #expect(Set(Topics.recordedFilters).count == Topics.recordedFilters.count)
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

import Testing
import QuadProtocol

/// One name table for controller activities: the JSON view's snake_case; plots and the CLI derive theirs.
@Suite struct ActivityNameTests {
    @Test func everySpellingDerivesFromTheOneTable() {
        let activities = ControllerState.Activity.allCases
        #expect(activities.map(\.jsonName) == [
            "landed", "taking_off", "hovering", "flying_to_target", "arrived", "landing", "emergency", "returning_home",
            "unknown",
        ])
        #expect(activities.map { $0.name(separator: " ") } == [
            "landed", "taking off", "hovering", "flying to target", "arrived", "landing", "emergency", "returning home",
            "unknown",
        ])
        #expect(activities.map { $0.name(separator: "-") } == [
            "landed", "taking-off", "hovering", "flying-to-target", "arrived", "landing", "emergency", "returning-home",
            "unknown",
        ])
    }
}

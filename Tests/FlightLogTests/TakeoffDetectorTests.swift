import Testing
import FlightLog
import QuadProtocol

struct TakeoffDetectorTests {
    @Test func reportsOneTakeoffPerFlight() {
        var detector = TakeoffDetector()
        let states: [DroneState.ControlState] = [.initializing, .landed, .takingOff, .takingOff, .hovering, .flying,
                                                 .landing, .landed, .landed, .flying, .hovering]
        let events = states.map { detector.observe($0) }
        #expect(events == [false, false, true, false, false, false, false, false, false, true, false])
    }

    /// A logger started mid-flight first hears the retained airborne state: the same flight, one file.
    @Test func airborneWhenFirstSeenIsNoTakeoff() {
        var detector = TakeoffDetector()
        let states: [DroneState.ControlState] = [.flying, .flying, .hovering, .landing, .landed, .takingOff]
        let events = states.map { detector.observe($0) }
        #expect(events == [false, false, false, false, false, true])
    }
}

import Clocks
import QuadProtocol
import Testing
@testable import GroundStation

/// `status` while the controller flies around a keep-out zone (issue 38): the route's line, from the retained
/// `airspace/route` and the controller's distance.
@Suite struct StatusBoardRouteTests {
    static let corner = AirspaceRoutePlan.Point(latitudeDeg: 52.5, longitudeDeg: 13.4)

    static func plan(_ purpose: AirspaceRoutePlan.Purpose, corners: Int = 4, next: Int = 1,
                     zone: String = "shed") -> AirspaceRoutePlan {
        AirspaceRoutePlan(sequence: 1, timestampUs: 0, purpose: purpose, goal: corner, start: corner,
                          corners: Array(repeating: corner, count: corners), nextCorner: next, lengthM: 80,
                          straightM: 60, zoneName: zone)
    }

    @Test func aTargetsRouteSaysTheZoneTheLegAndTheWayLeft() {
        #expect(StatusBoard.routeText(Self.plan(.target), distanceM: 31.4) == "around 'shed': leg 2 of 5, 31 m left")
        #expect(StatusBoard.routeText(Self.plan(.target, next: 4), distanceM: nil) == "around 'shed': leg 5 of 5")
        #expect(StatusBoard.routeText(Self.plan(.target, zone: ""), distanceM: 2)
                == "around a zone: leg 2 of 5, 2 m left")
    }

    @Test func aReturnsRouteSaysHome() {
        #expect(StatusBoard.routeText(Self.plan(.returnHome, corners: 2, next: 0), distanceM: 44.2)
                == "home around 'shed': leg 1 of 3, 44 m from home")
    }

    @Test func noRouteSaysNothingAndTheScreenShowsTheLineOnlyWhileOneIsFlown() {
        #expect(StatusBoard.routeText(.none(), distanceM: 10) == nil)
        var board = StatusBoard(drone: .default)
        board.update(controller: ControllerState(sequence: 1, timestampUs: 0, activity: .flyingToTarget,
                                                 reason: Reason(code: "target-around-zone"),
                                                 targetLatitudeDeg: 52.5, targetLongitudeDeg: 13.4,
                                                 distanceToTargetM: 31),
                     receivedAt: .init(us: 0))
        #expect(!board.render(now: .init(us: 0)).contains("  route "))
        board.update(route: Self.plan(.target))
        #expect(board.render(now: .init(us: 0)).contains("\n  route     around 'shed': leg 2 of 5, 31 m left"))
        board.update(route: .none())
        #expect(!board.render(now: .init(us: 0)).contains("  route "))
    }
}

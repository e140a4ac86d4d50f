import Clocks
import QuadProtocol

extension ControllerMode {
    /// Holding over the target.
    struct Arrived: Sendable, Equatable {
        /// The flight's filter, carried on: it tells when the drone has left the arrival radius (`navigation`).
        var arrival: ArrivalFilter
    }
}

/// Arrived: pure functions of its data and a narrow `Context`. On entry the flight's arrival filter is kept.
extension ControllerMode.Arrived {
    /// All the hold over the target reads of the controller.
    struct Context {
        let positionFresh: Bool
        let navigationFresh: Bool
        /// Its arrival and leaving radii.
        let law: ControlLaw
        /// The vehicle link holds the arrived target as a position itself (mavlink-link reads the arrival from
        /// this controller's state): a hover is then the steadiest hold, and velocity corrections would only take
        /// the hold away from the autopilot.
        var linkHoldsTarget = false
    }

    /// On entry: the flight's arrival filter goes on (a re-entry keeps all), else a new one.
    static func entering(continuing: Self?, flightArrival: ArrivalFilter?, newArrival: ArrivalFilter) -> Self {
        continuing ?? Self(arrival: flightArrival ?? newArrival)
    }

    /// On a fresh navigation solution (in the filter already): out of the arrival radius, fly to the target again
    /// (a wider radius than arrival's: hysteresis).
    func navigation(_ context: Context) -> Transition? {
        guard let filteredM = arrival.filteredDistanceM, context.law.hasLeftArrival(distanceM: filteredM) else {
            return nil
        }
        return Transition(to: .flyingToTarget, reason: .leftArrivalRadius)
    }

    /// Its flight command, besides the altitude hold: the drone's own hover drifts a little with the wind: past
    /// half the arrival radius (filtered), the position law brings it back; closer, its own hover is steadier
    /// than any GPS. Behind a link that holds the target itself, never: the hover is the hold.
    func holdsPosition(_ context: Context) -> Bool {
        guard !context.linkHoldsTarget, let distanceM = arrival.filteredDistanceM else { return false }
        return distanceM > context.law.arrivalRadiusM / 2 && context.navigationFresh && context.positionFresh
    }
}

import Clocks
import QuadProtocol

extension ControllerMode {
    /// Holding over the target.
    struct Arrived: Sendable, Equatable {
        /// The flight's filter, carried on: it tells when the drone has left the arrival radius (`navigation`).
        var arrival: ArrivalFilter
    }
}

/// Arrived. On entry: the flight's arrival filter is kept (`entering`).
extension ControllerStateMachine {
    /// On entry: the flight's arrival filter goes on.
    func arrivedEntry() -> ControllerMode.Arrived {
        switch mode {
        case .arrived(let arrived): return arrived
        case .flyingToTarget(let flying): return ControllerMode.Arrived(arrival: flying.arrival)
        default: return ControllerMode.Arrived(arrival: newArrivalFilter)
        }
    }

    /// On a fresh navigation solution (in the filter already): out of the arrival radius, fly to the target again
    /// (a wider radius than arrival's: hysteresis).
    func arrivedNavigation(_ arrived: ControllerMode.Arrived) -> Transition? {
        guard let filteredM = arrived.arrival.filteredDistanceM, law.hasLeftArrival(distanceM: filteredM) else {
            return nil
        }
        return Transition(to: .flyingToTarget, reason: .leftArrivalRadius)
    }

    /// Its flight command: the drone's own hover drifts a little with the wind: past half the arrival radius
    /// (filtered), the position law brings it back; closer, its own hover is steadier than any GPS.
    mutating func arrivedCommand(_ arrived: ControllerMode.Arrived, into command: inout FlightCommand,
                                 now: MonotonicInstant) {
        if let distanceM = arrived.arrival.filteredDistanceM, distanceM > law.arrivalRadiusM / 2,
           navigationFresh(now: now), positionFresh(now: now) {
            _ = holdPosition(arrived.arrival, into: &command, now: now)
        }
        holdAltitude(&command, now: now)
    }
}

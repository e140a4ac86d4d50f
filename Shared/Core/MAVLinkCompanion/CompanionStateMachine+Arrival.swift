import Clocks
import MAVLink
import Navigation
import QuadProtocol

/// The controller's arrival, read from its retained ControllerState: while it says `arrived`, a hover holds its
/// target instead of the point where the vehicle stopped (`HoverHold`). Only the target's position is taken; the
/// flight stays the controller's: it still decides when to hover and when to fly on.
extension CompanionStateMachine {
    public mutating func controllerState(_ state: ControllerState, now: MonotonicInstant) -> [CompanionAction] {
        var next: GeoPoint?
        if state.activity == .arrived, let latitudeDeg = state.targetLatitudeDeg,
           let longitudeDeg = state.targetLongitudeDeg {
            next = try? GeoPoint.validated(latitudeDeg: latitudeDeg, longitudeDeg: longitudeDeg)
        }
        guard next != arrivedTarget else { return [] }
        arrivedTarget = next
        arrivedGoal = nil
        guard let next else { return [] }
        return [.log(.debug, "the controller arrived at \(next.latitudeDeg),\(next.longitudeDeg): a hover holds it")]
    }

    /// The arrived target in the local frame, worked out once (from then on a fixed point, not one that moves with
    /// every fix's noise); nil while the controller has not arrived or the vehicle's position is not known yet.
    mutating func hoverGoal() -> HoverHold.Goal? {
        guard let arrivedTarget else { return nil }
        if arrivedGoal == nil { arrivedGoal = localGoal(arrivedTarget) }
        return arrivedGoal
    }

    /// `target` in the autopilot's local frame: the offset from the vehicle's GLOBAL_POSITION_INT added to its
    /// LOCAL_POSITION_NED, the local one taken back to the global one's time (they are not sampled together, and
    /// the vehicle may still move). nil without both or with a time gap over half a second.
    func localGoal(_ target: GeoPoint) -> HoverHold.Goal? {
        guard let global = telemetry.position, let local = telemetry.localPosition else { return nil }
        let gapS = Float(Int64(local.timeBootMs) - Int64(global.timeBootMs)) / 1000
        guard abs(gapS) <= 0.5 else { return nil }
        let here = GeoPoint(latitudeDeg: Double(global.latE7) / 1e7, longitudeDeg: Double(global.lonE7) / 1e7)
        let offset = LocalTangentPlane(origin: here).metres(target)
        let goal = HoverHold.Goal(northM: local.xM - local.vxMps * gapS + Float(offset.northM),
                                  eastM: local.yM - local.vyMps * gapS + Float(offset.eastM))
        return goal.northM.isFinite && goal.eastM.isFinite ? goal : nil
    }
}

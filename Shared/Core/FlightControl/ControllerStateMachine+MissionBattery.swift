import Clocks
import Mission
import Navigation
import QuadProtocol

/// The battery and the mission (issue 37, item 5): before `start` (and `resume`) and at every item reached, the rest
/// of the mission and the way home after it must fit in what the battery has above `--land-battery`, the level at
/// which the low-battery rule takes the drone home or down. Otherwise `start` is refused with the figures, or the
/// mission is cut short by a return home, said as such.
extension ControllerStateMachine {
    /// Why the battery does not cover the mission from `fromItem` (nil: from where it is), with the figures; nil when
    /// it does, or when navdata has not said what the battery holds.
    func missionBatteryShortfall(fromItem: Int? = nil, now: MonotonicInstant) -> String? {
        guard let mission, let state = lastDroneState, droneStateFresh(now: now) else { return nil }
        let budget = flight?.battery ?? BatteryBudget()
        // Each leg as it is flown: around the keep-out zones it meets.
        let route = mission.executor.remainingRoute(fromItem: fromItem, position: lastPosition, now: now) {
            way(from: $0, to: $1).distanceM
        }
        // At the speed the drone makes (measured this flight), else the cruise of a target.
        let speedMps = max(budget.measuredSpeedMps ?? targetCruiseSpeedMps, 0.1)
        var seconds = route.distanceM / speedMps + route.stays.inSeconds
        if !activity.isAirborne { seconds += altitudeHold.cruiseAltitudeM / 0.5 }   // the takeoff's climb
        var neededPercent = budget.percent(forSeconds: seconds)
        var wayHome = ""
        // A plan that ends with a landing ends on the ground; any other end still has the way home to fly.
        let endsLanded = if case .land = mission.executor.plan.items.last?.kind { true } else { false }
        if !endsLanded, let end = route.end, let home = home ?? groundPosition.mean ?? lastPosition {
            let way = self.way(from: end, to: home)
            neededPercent += returnCostPercent(distanceM: way.distanceM, now: now)
            wayHome = " and \(Int(way.distanceM.rounded())) m home\(way.zoneName.map { " around '\($0)'" } ?? "")"
        }
        let sparePercent = Double(state.batteryPercent) - Double(configuration.landBatteryPercent)
        guard neededPercent > sparePercent else { return nil }
        return "the battery does not cover it: \(Int(route.distanceM.rounded())) m to fly"
            + "\(route.stays > .zero ? " with \(Int(route.stays.inSeconds.rounded())) s of holds" : "")\(wayHome) "
            + "need ~\(Int(neededPercent.rounded(.up)))%, \(state.batteryPercent)% left, "
            + "\(configuration.landBatteryPercent)% kept for landing (--land-battery)"
    }

    /// At an item reached: a mission the battery no longer covers is aborted and the drone returns home (or lands
    /// where it is when even the way home no longer fits: the low-battery rule decides that).
    mutating func missionBatteryCheck(now: MonotonicInstant) -> [ControllerAction] {
        guard mission?.executor.state == .running, let shortfall = missionBatteryShortfall(now: now) else {
            return []
        }
        var actions: [ControllerAction] = [.log(.warning, "mission cut short: \(shortfall): returning home")]
        actions += missionStep(.abort, now: now)
        if returnRefusal() == nil {
            actions += apply(returnTransition(goal: .home, reason: .missionBatteryReturn, now: now), now: now)
        }
        return actions
    }
}

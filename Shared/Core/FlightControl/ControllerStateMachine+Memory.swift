import Clocks
import Navigation
import QuadProtocol

/// The flight kept across the controller's own restart (`FlightMemory`): remembered on every change, found again
/// at start, resumed when the first navdata shows the drone still in the air and the target is still valid (not
/// expired, not replaced by a newer one, its pilot not released); otherwise the drone holds and the reason says why.
extension ControllerStateMachine {
    /// What a restarted controller would need to go on now; nil when there is nothing to go on with.
    var currentMemory: FlightMemory? {
        switch activity {
        // Not established yet: what the previous run left stays as it is until navdata says.
        case .unknown: return lastRemembered
        case .landed, .emergency, .takingOff: return nil
        case .hovering, .flyingToTarget, .arrived, .returningHome, .landing:
            return FlightMemory(bootId: bootId, activity: activity, pilotId: pilotId, target: target,
                                targetReceivedAt: targetReceivedAt, home: home,
                                wantedAltitudeM: wantedAltitudeM)
        }
    }

    /// At start, before any event: the memory the previous run left. Its pilot keeps control now; the flight
    /// itself waits for navdata.
    public mutating func restore(_ memory: FlightMemory, now: MonotonicInstant) -> [ControllerAction] {
        guard memory.bootId == bootId, !bootId.isEmpty else {
            return [.log(.info, "flight memory from another boot (its clock times mean nothing now): ignored")]
        }
        resumable = memory
        lastRemembered = memory
        if pilotId == nil { pilotId = memory.pilotId }
        let what = memory.target.map { "target \($0.latitudeDeg),\($0.longitudeDeg)" } ?? "no target"
        return [.log(.info, "the previous run was \(memory.activity.jsonName) (\(what)"
            + (memory.pilotId.map { ", pilot \($0)" } ?? "") + "): resumed if navdata shows the drone in the air")]
    }

    /// First navdata of this run shows the drone in the air: go on with the remembered flight, or hold.
    mutating func resumeFlight(now: MonotonicInstant) -> Transition {
        // The flight starts here. Its home is the one the previous run saw the drone take off from, or none: a
        // home this run did not see (the fixes under a flying drone) is never invented, so `return` is refused
        // (`return-refused-no-home`) rather than landing where the controller happened to restart.
        guard let memory = resumable else {
            flight = Flight(home: nil, homeFromFirstFix: false, wantedAltitudeM: nil)
            pendingLogs.append(.log(.warning, "no flight memory: hovering; home unknown, so return is refused"))
            return Transition(to: .hovering, reason: .resumedInFlight)
        }
        resumable = nil
        flight = Flight(home: memory.home, homeFromFirstFix: false, wantedAltitudeM: memory.wantedAltitudeM)
        if memory.home == nil {
            pendingLogs.append(.log(.warning, "the previous run kept no home: return is refused"))
        }
        switch memory.activity {
        case .landing:
            return Transition(to: .landing, reason: .resumedLanding)
        case .returningHome where home != nil:
            return returnTransition(goal: .home, reason: .resumedReturn, now: now)
        default:
            guard let remembered = memory.target else { return Transition(to: .hovering, reason: .resumedInFlight) }
            if remembered.ttlS > 0, now - memory.targetReceivedAt > .seconds(clamping: Double(remembered.ttlS)) {
                pendingLogs.append(.log(.warning,
                    "the previous run's target expired while no controller ran: hovering"))
                return Transition(to: .hovering, reason: .resumedTargetExpired)
            }
            target = remembered
            targetReceivedAt = memory.targetReceivedAt
            lastNavigation = nil
            pendingLogs.append(.log(.info, "resumed the previous run's flight to \(remembered.latitudeDeg),"
                + "\(remembered.longitudeDeg)"))
            return Transition(to: .flyingToTarget, reason: .resumedTarget)
        }
    }

    /// A newer order (target, release) came before navdata: the remembered flight is not what is wanted any more.
    mutating func forgetResumableFlight(because why: String) {
        guard resumable != nil else { return }
        resumable = nil
        pendingLogs.append(.log(.info, "the previous run's flight is not resumed: \(why)"))
    }

    /// `.rememberFlight` when what a restart would need changed.
    mutating func rememberActions() -> [ControllerAction] {
        guard !bootId.isEmpty else { return [] }
        let memory = currentMemory
        guard memory != lastRemembered else { return [] }
        lastRemembered = memory
        return [.rememberFlight(memory)]
    }
}

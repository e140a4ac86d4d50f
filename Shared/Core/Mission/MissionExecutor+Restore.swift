import Clocks

extension MissionExecutor {
    /// Takes up a persisted record in a fresh executor. A running mission continues in the air after a service
    /// restart (a loiter with the time it had left); after a power cycle it holds until `resume`; on the ground
    /// it waits for `start`. Finished, paused and returning missions stay so.
    mutating func restore(_ record: MissionProgressRecord, powerCycle: Bool, airborne: Bool,
                          now: MonotonicInstant) -> [Action] {
        guard state == .idle, reached.isEmpty, origin == nil else { return [.refused(.alreadyStarted)] }
        let ids = plan.items.indices
        guard record.planChecksum == plan.checksum, ids.contains(record.currentItem),
              Set(record.reached.map(\.id)).count == record.reached.count,
              record.reached.allSatisfy({ ids.contains($0.id) }) else { return [.refused(.recordNotForThisPlan)] }
        reached = record.reached
        currentItem = record.currentItem
        phase = record.phase
        // Never more than the item asks for, whatever the record says.
        stayLeft = min(max(.zero, record.stayLeft), plan.items[record.currentItem].stayTime)
        origin = now.advanced(by: .zero - record.elapsed)
        state = record.state
        switch record.state {
        case .idle, .completed, .aborted:
            return []
        case .running, .paused, .holdingAfterRestart, .returning:
            if !airborne {
                state = .holdingAfterRestart
                onGround = true
                return []
            }
            if record.state == .running, !powerCycle { return proceed(now: now) }
            if record.state == .returning { return [.returnHome] }
            if powerCycle || record.state == .holdingAfterRestart { state = .holdingAfterRestart }
            return [.hold]
        }
    }
}

import Clocks
import Navigation

extension MissionExecutor {
    /// The record the board persists now.
    public func record(now: MonotonicInstant) -> MissionProgressRecord {
        MissionProgressRecord(planChecksum: plan.checksum, state: state, phase: phase, currentItem: currentItem,
                              stayLeft: stayTimeLeft(now: now), elapsed: missionTime(now), reached: reached)
    }

    public func progress(now: MonotonicInstant) -> MissionProgress {
        let (distanceM, time) = remaining(now: now)
        return MissionProgress(record: record(now: now), remainingDistanceM: distanceM, remainingTime: time)
    }

    /// From the last position through every point still to fly; the time at the plan's speed plus the stays left.
    func remaining(now: MonotonicInstant) -> (Double, Duration) {
        guard !state.isFinished, plan.items.indices.contains(currentItem) else { return (0, .zero) }
        var distanceM = 0.0
        var stays = Duration.zero
        var from = position
        for item in plan.items[currentItem...] {
            if item.id == currentItem, phase == .staying {
                stays += stayTimeLeft(now: now)
                from = item.point ?? from
                continue
            }
            stays += item.stayTime
            guard let point = item.point else { continue }
            if let from { distanceM += Geodesy.inverse(from: from, to: point).distanceM }
            from = point
        }
        let speedMps = plan.cruiseSpeedMps ?? configuration.estimateSpeedMps
        let travel = Duration.seconds(clamping: distanceM.isFinite ? distanceM / speedMps : 0)
        return (distanceM.isFinite ? distanceM : 0, travel + stays)
    }

    /// Persist after every change of state, item, phase or reached items, and while a stay runs at most every
    /// `persistEvery`; progress goes out with every persist and at least every `progressEvery` once started.
    mutating func bookkeeping(now: MonotonicInstant) -> [Action] {
        guard origin != nil else { return [] }
        var actions: [Action] = []
        let current = record(now: now)
        let changed = lastPersisted?.withoutClocks != current.withoutClocks
        let stayDue = state == .running && phase == .staying
            && lastPersistAt.map { now - $0 >= configuration.persistEvery } ?? true
        if changed || stayDue {
            actions.append(.persist(current))
            lastPersisted = current
            lastPersistAt = now
        }
        let progressDue = lastProgressAt.map { now - $0 >= configuration.progressEvery } ?? true
        if !actions.isEmpty || progressDue {
            actions.append(.publishProgress(progress(now: now)))
            lastProgressAt = now
        }
        return actions
    }
}

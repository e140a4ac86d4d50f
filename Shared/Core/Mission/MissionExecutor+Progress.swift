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

    /// What is left to fly: the distance from the last position through every point still to fly, the time those
    /// legs take at each one's speed (`legSpeedMps`, from rest to rest: `legTimeS`), the holds and loiters left, and
    /// where it ends (the last point; the position when no point is left). `fromItem`: as if the mission were started
    /// there now (a `start` asks from item 0); `position`: where the drone is, if the executor has not been told
    /// yet; `legLengthM`: a leg's length as it is flown (the controller's goes around keep-out zones), straight by
    /// default.
    public func remainingRoute(fromItem: Int? = nil, position: GeoPoint? = nil, now: MonotonicInstant,
                               legLengthM: (GeoPoint, GeoPoint) -> Double = Self.straightM)
        -> (distanceM: Double, flying: Duration, stays: Duration, end: GeoPoint?) {
        let position = position ?? self.position
        let first = fromItem ?? currentItem
        guard fromItem != nil || !state.isFinished, plan.items.indices.contains(first) else {
            return (0, .zero, .zero, position)
        }
        var distanceM = 0.0
        var flyingS = 0.0
        var stays = Duration.zero
        var from = position
        // The speed in force, carried along the items (a speed change applies to the legs after it).
        var speedMps = speed(for: first)
        for item in plan.items[first...] {
            if case let .changeSpeed(newMps) = item.kind { speedMps = newMps }
            if fromItem == nil, item.id == currentItem, phase == .staying {
                stays += stayTimeLeft(now: now)
                from = item.point ?? from
                continue
            }
            stays += item.stayTime
            guard let point = item.point else { continue }
            if let from {
                let legM = legLengthM(from, point)
                distanceM += legM
                flyingS += Self.legTimeS(lengthM: legM, speedMps: legSpeedMps(speedMps),
                                         accelerationMps2: configuration.legAccelerationMps2)
            }
            from = point
        }
        return (distanceM.isFinite ? distanceM : 0, .seconds(clamping: flyingS.isFinite ? flyingS : 0), stays, from)
    }

    /// A leg's speed as flown: the plan's speed in force (nil: none, the estimate, the controller's cruise for a
    /// target), within the speed limit.
    func legSpeedMps(_ planSpeedMps: Double?) -> Double {
        max(min(planSpeedMps ?? configuration.estimateSpeedMps, configuration.speedLimitMps), 0.1)
    }

    /// A leg flown from rest to rest: up to `speedMps` and down again at `accelerationMps2`, which adds
    /// speed/acceleration to its length at speed (half a leg's speed-up, half its braking); a leg too short to reach
    /// the speed takes 2√(length/acceleration). The current leg is counted from rest too: at most speed/(2 ×
    /// acceleration) more than it has left (1 s at 3 m/s).
    public static func legTimeS(lengthM: Double, speedMps: Double, accelerationMps2: Double) -> Double {
        guard accelerationMps2 > 0, accelerationMps2.isFinite else { return lengthM / speedMps }
        guard lengthM < speedMps * speedMps / accelerationMps2 else {
            return lengthM / speedMps + speedMps / accelerationMps2
        }
        return 2 * (max(lengthM, 0) / accelerationMps2).squareRoot()
    }

    /// A straight leg's length, metres.
    public static func straightM(from start: GeoPoint, to end: GeoPoint) -> Double {
        Geodesy.inverse(from: start, to: end).distanceM
    }

    /// The distance left and the time: each leg at its speed (as flown: within the speed limit) plus the stays left.
    func remaining(now: MonotonicInstant) -> (Double, Duration) {
        let route = remainingRoute(now: now)
        return (route.distanceM, route.flying + route.stays)
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

import Clocks
import Navigation

extension MissionExecutor {
    mutating func start(airborne: Bool, now: MonotonicInstant) -> [Action] {
        guard state == .idle || state.isFinished || (state == .holdingAfterRestart && onGround) else {
            return [.refused(.alreadyStarted)]
        }
        if !airborne {
            // Speed changes before the takeoff apply on the way; anything else first would fly from the ground.
            guard let takeoff = plan.items.firstIndex(where: { !isSpeedChange($0) }),
                  case let .takeoff(altitudeM) = plan.items[takeoff].kind else { return [.refused(.noTakeoffOnGround)] }
            reset(now: now)
            for index in 0..<takeoff { markReached(index, errorM: 0, now: now) }
            currentItem = takeoff
            phase = .takingOff
            return [.takeoff(altitudeM: altitudeM)]
        }
        reset(now: now)
        return begin(0, now: now)
    }

    mutating func reset(now: MonotonicInstant) {
        state = .running
        reached = []
        origin = now
        onGround = false
        stayUntil = nil
        stayLeft = .zero
    }

    mutating func pause(now: MonotonicInstant) -> [Action] {
        guard state == .running || state == .returning else { return [.refused(.notRunning)] }
        stayLeft = stayTimeLeft(now: now)
        stayUntil = nil
        state = .paused
        return [.hold]
    }

    mutating func resume(now: MonotonicInstant) -> [Action] {
        guard [.paused, .holdingAfterRestart, .returning].contains(state) else { return [.refused(.notPaused)] }
        guard !onGround else { return [.refused(.onGround)] }
        state = .running
        return proceed(now: now)
    }

    /// Carries on with the current item in its phase (after a resume or a restore in the air).
    mutating func proceed(now: MonotonicInstant) -> [Action] {
        let item = plan.items[currentItem]
        switch phase {
        case .staying:
            // Only items with a point stay (waypoint, loiter); a record saying otherwise moves on.
            guard let point = item.point else { return begin(currentItem + 1, now: now) }
            stayUntil = now.advanced(by: stayLeft)
            return [.loiter(point, altitudeM: item.altitudeM, until: now.advanced(by: stayLeft))]
        case .takingOff:
            // In the air again: the takeoff is done (never asked for twice).
            markReached(currentItem, errorM: 0, now: now)
            return begin(currentItem + 1, now: now)
        case .approaching: return begin(currentItem, now: now)
        case .landing: return [.land(item.point)]
        }
    }

    mutating func goto(_ item: Int, now: MonotonicInstant) -> [Action] {
        guard plan.items.indices.contains(item) else { return [.refused(.noSuchItem)] }
        guard [.running, .paused, .holdingAfterRestart, .returning].contains(state) else {
            return [.refused(.notRunning)]
        }
        reached.removeAll { $0.id >= item }
        stayUntil = nil
        stayLeft = .zero
        guard state == .running else {
            currentItem = item
            phase = .approaching
            return []
        }
        return begin(item, now: now)
    }

    mutating func arrived(_ item: Int, errorM: Double, now: MonotonicInstant) -> [Action] {
        // A late or repeated arrival (another item, or one already reached) changes nothing.
        guard state == .running, item == currentItem, phase == .approaching || phase == .takingOff else { return [] }
        markReached(item, errorM: errorM, now: now)
        let current = plan.items[item]
        if case let .land(point) = current.kind {
            phase = .landing
            state = .completed
            return [.land(point)]
        }
        guard current.stayTime > .zero, let point = current.point else { return begin(item + 1, now: now) }
        phase = .staying
        stayUntil = now.advanced(by: current.stayTime)
        return [.loiter(point, altitudeM: current.altitudeM, until: now.advanced(by: current.stayTime))]
    }

    mutating func tick(now: MonotonicInstant) -> [Action] {
        guard state == .running, phase == .staying, let stayUntil, now >= stayUntil else { return [] }
        self.stayUntil = nil
        return begin(currentItem + 1, now: now)
    }

    mutating func pilotLost(now: MonotonicInstant) -> [Action] {
        guard [.running, .paused, .holdingAfterRestart].contains(state) else { return [] }
        switch configuration.lostPilotRule {
        case .continueMission: return []
        case .returnHome:
            stayLeft = stayTimeLeft(now: now)
            stayUntil = nil
            state = .returning
            return [.returnHome]
        case .land:
            stayUntil = nil
            state = .aborted
            return [.land(nil)]
        }
    }

    /// Makes item `index` current and does what it asks; items that need no flying (speed changes, a takeoff in
    /// the air) are reached at once and the next one follows.
    mutating func begin(_ index: Int, now: MonotonicInstant) -> [Action] {
        var index = index
        while plan.items.indices.contains(index) {
            let item = plan.items[index]
            currentItem = index
            phase = .approaching
            stayLeft = .zero
            switch item.kind {
            case .takeoff, .changeSpeed:
                markReached(index, errorM: 0, now: now)
                index += 1
            case let .waypoint(point, altitudeM, _, radiusM):
                return [.flyTo(point, altitudeM: altitudeM, speedMps: speed(for: index), acceptanceRadiusM: radiusM)]
            case let .loiterTime(point, altitudeM, _):
                return [.flyTo(point, altitudeM: altitudeM, speedMps: speed(for: index),
                               acceptanceRadiusM: MissionItem.defaultAcceptanceRadiusM)]
            case let .land(point?):
                return [.flyTo(point, altitudeM: nil, speedMps: speed(for: index),
                               acceptanceRadiusM: MissionItem.defaultAcceptanceRadiusM)]
            case .land(nil):
                markReached(index, errorM: 0, now: now)
                phase = .landing
                state = .completed
                return [.land(nil)]
            case .returnToLaunch:
                markReached(index, errorM: 0, now: now)
                state = .completed
                return [.returnHome]
            }
        }
        state = .completed
        return [.hold]
    }

    mutating func markReached(_ index: Int, errorM: Double, now: MonotonicInstant) {
        guard !reached.contains(where: { $0.id == index }) else { return }
        let errorM = errorM.isFinite ? max(0, errorM) : 0
        reached.append(ReachedItem(id: index, at: missionTime(now), arrivalErrorM: errorM))
    }

    /// The last speed change before the item in the plan, else the plan's cruise speed (nil: the plan sets none).
    public func speed(for index: Int) -> Double? {
        for item in plan.items[..<index].reversed() {
            if case let .changeSpeed(speedMps) = item.kind { return speedMps }
        }
        return plan.cruiseSpeedMps
    }

    func isSpeedChange(_ item: MissionItem) -> Bool {
        if case .changeSpeed = item.kind { true } else { false }
    }
}

import Checksums
import Clocks
import Mission
import Navigation
import QuadProtocol

/// The mission on the board (issue 37): an upload is checked against this board's limits and held; the executor's
/// actions become the controller's own inputs (takeoff, a target, hover, land, return) and the controller's arrival
/// judgement (`arrived`) is the item's. The executor's records are persisted, its progress published.
extension ControllerStateMachine {
    /// The sender id of the targets the mission sets (the navigator adopts them from the controller's state).
    public static let missionSenderId = "mission"

    /// An upload from the bus (`store`: keep it). The same plan again (the retained copy a restarted controller
    /// receives) changes nothing; a plan breaking the board's limits, or any plan while one is under way, is refused
    /// whole, the item's index in the log line.
    public mutating func missionUpload(_ upload: MissionUpload, store: Bool,
                                       now: MonotonicInstant) -> [ControllerAction] {
        let plan = upload.plan
        if let mission, mission.checksum == plan.checksum { return [] }
        // While a pilot holds control only the pilot loads a plan, as only the pilot starts it or changes the
        // airspace: another ground tool's plan would be the one the pilot's `mission start` flies.
        if store, let pilotId, upload.senderId != pilotId {
            return missionRefusal(plan, from: upload.senderId, item: nil, because: "'\(pilotId)' holds pilot control")
        }
        if let mission, mission.executor.state.isUnderWay {
            return missionRefusal(plan, from: upload.senderId, item: nil, because: """
                mission \(CRC32.text(mission.checksum)) is under way (\(mission.executor.state)): abort it first
                """)
        }
        // The fence is centred on home; before a takeoff, on where the drone stands.
        guard let centre = home ?? groundPosition.mean ?? lastPosition else {
            return missionRefusal(plan, from: upload.senderId, item: nil,
                                  because: "no position yet: the fence has no centre (upload again once the drone "
                                    + "has a fix)")
        }
        let limits = MissionLimits(ceilingM: altitudeHold.maxAltitudeM, fenceRadiusM: configuration.geofenceRadiusM,
                                   home: centre, airspace: airspace.current)
        do { try plan.validate(limits: limits) } catch {
            return missionRefusal(plan, from: upload.senderId, item: error.item, because: "\(error)")
        }
        mission = MissionRunner(plan: plan, senderId: upload.senderId, configuration: missionConfiguration)
        missionStatusRecord.refusal = nil
        var actions: [ControllerAction] = store ? [.storeMission(upload)] : []
        actions.append(.publishMissionHeld(upload))
        actions.append(.log(.notice, "mission \(CRC32.text(plan.checksum)) accepted from \(upload.senderId): "
            + "\(plan.items.count) items"))
        return actions + missionAcknowledgement(now: now) + [.publishMissionStatus(missionStatus())]
    }

    /// The status to publish (at start too: the retained one on the broker may be an older run's).
    public mutating func missionStatus() -> MissionStatus {
        missionStatusRecord.sequence &+= 1
        return MissionStatus(sequence: missionStatusRecord.sequence, heldChecksum: mission?.checksum,
                             refusal: missionStatusRecord.refusal)
    }

    /// At start: the plan the previous run accepted, and its last record with the boot it was written in. The record
    /// is taken up once navdata says whether the drone flies (`missionTickRule`); a record of another boot is a
    /// power cycle: the mission holds until `resume`.
    public mutating func restoreMission(_ upload: MissionUpload, record: MissionProgressRecord?, recordBootId: String,
                                        now: MonotonicInstant) -> [ControllerAction] {
        mission = MissionRunner(plan: upload.plan, senderId: upload.senderId, configuration: missionConfiguration)
        let name = CRC32.text(upload.plan.checksum)
        guard let record, record.state != .idle else {
            return [.publishMissionHeld(upload), .log(.notice, "mission \(name) restored, not started")]
                + missionAcknowledgement(now: now)
        }
        let powerCycle = bootId.isEmpty || recordBootId != bootId
        mission?.pendingRestore = .init(record: record, powerCycle: powerCycle)
        return [.publishMissionHeld(upload), .log(.notice, """
            mission \(name) restored at item \(record.currentItem) (\(record.state))\
            \(powerCycle ? " after a power cycle: holds until resume" : ""); waiting for navdata
            """)]
    }

    /// A command from the ground, addressed to the plan held by its checksum.
    public mutating func missionCommand(_ command: MissionCommand, now: MonotonicInstant) -> [ControllerAction] {
        guard let mission else {
            return finish(missionCommandRefusal(command, because: "no plan on the board"), now: now)
        }
        guard command.planChecksum == mission.checksum else {
            return finish(missionCommandRefusal(command, because: """
                addressed to plan \(CRC32.text(command.planChecksum)), the board holds \(CRC32.text(mission.checksum))
                """), now: now)
        }
        if let pilotId, command.senderId != pilotId {
            return finish(missionCommandRefusal(command, because: "'\(pilotId)' holds pilot control"), now: now)
        }
        guard mission.pendingRestore == nil, activity != .unknown else {
            return finish(missionCommandRefusal(command, because: "waiting for navdata"), now: now)
        }
        if command.kind == .start || command.kind == .resume, mission.executor.state != .running,
           let shortfall = missionBatteryShortfall(fromItem: command.kind == .start ? 0 : nil, now: now) {
            return finish(missionCommandRefusal(command, because: shortfall), now: now)
        }
        let event: MissionExecutor.Event = switch command.kind {
        case .start: .start(airborne: activity.isAirborne)
        case .pause: .pause
        case .resume: .resume
        case .abort: .abort
        case let .goto(item): .goto(item: item)
        }
        mustPublish = true
        return finish([.log(.notice, "mission \(command.kind) from \(command.senderId)")]
                      + missionStep(event, now: now), now: now)
    }

    /// The tick's mission rule: a restored record once navdata is in, the position, the arrival the controller
    /// judged, and the executor's clock (a stay's end, the periodic progress).
    mutating func missionTickRule(now: MonotonicInstant) -> [ControllerAction] {
        guard let mission else { return [] }
        var actions: [ControllerAction] = []
        if let pending = mission.pendingRestore {
            guard activity != .unknown else { return [] }
            self.mission?.pendingRestore = nil
            let airborne = activity.isAirborne || activity == .takingOff
            actions += missionStep(.restored(pending.record, powerCycle: pending.powerCycle, airborne: airborne),
                                   now: now)
        }
        // The controller dropped the item's target (the geofence, the airspace watch, no progress, stale navigation):
        // the mission pauses, and says so in its progress, rather than read "running" over a hovering drone;
        // `mission resume` flies the item again. (A target the pilot sent instead is the pilot's: left alone.)
        if let item = mission.targetItem, target == nil, mission.executor.state == .running,
           mission.executor.phase == .approaching {
            self.mission?.targetItem = nil
            actions.append(.log(.warning, "mission: the target of item \(item) was dropped (\(reason.code)): pausing"))
            actions += missionStep(.pause, now: now)
        }
        if let lastPosition, positionFresh(now: now) { actions += missionStep(.position(lastPosition), now: now) }
        let landPointSettled = landPointSettled(now: now)
        if let arrival = missionArrival(), landPointSettled {
            actions.append(.log(.info, "mission: item \(arrival.item) reached, \(Int(arrival.errorM.rounded())) m off"))
            // The arrival filter's mean of the last `arrivalWindow` of fixes says where the drone was about half a
            // window ago: the item was reached then, and its hold or loiter counts from then. Counted from the
            // judgement, the drone stayed that much longer than planned (0.6 s measured on PX4 and ArduCopter
            // SITL, issue 37 item 6). A takeoff is judged on navdata, not the filter.
            let reachedAt = mission.executor.phase == .approaching
                ? now.advanced(by: .zero - configuration.arrivalWindow / 2) : now
            actions += missionStep(.arrived(item: arrival.item, errorM: arrival.errorM), now: reachedAt)
            actions += missionBatteryCheck(now: now)
        }
        return actions + missionStep(.tick, now: now)
    }

    /// Behind mavlink-link a land item's point counts as reached once the drone has settled over it, within
    /// `landSettleRadiusM` by the filtered position or `landSettleTimeout` after it arrived, and come down to the
    /// approach height there (`returnApproachAltitudeM`, 1 m, as the return does over home). The autopilot holds
    /// the point itself meanwhile (the arrived target; a height change is the gaz alone). A LAND begun while the
    /// vehicle still moved from the leg drifted 1.1 m off the point on PX4; PX4's own LAND drifted ~0.5 m in the air
    /// from 3 m (0.26 → 0.75 m, 0.36 → 0.89 m off D at touchdown) and 0–0.25 m from 1 m. True for every other item,
    /// and on the AR.Drone (its landing is as before).
    mutating func landPointSettled(now: MonotonicInstant) -> Bool {
        guard let mission, vehicleHoldsGroundVelocity, let index = mission.targetItem,
              let item = mission.executor.plan.items.first(where: { $0.id == index }),
              case .land(.some) = item.kind, case .arrived(let arrived) = mode else {
            self.mission?.landSettleSince = nil
            return true
        }
        let since = mission.landSettleSince ?? now
        self.mission?.landSettleSince = since
        let settled = (arrived.arrival.filteredDistanceM ?? .infinity) <= Self.landSettleRadiusM
            || now - since >= Self.landSettleTimeout
        guard settled else { return false }
        let approachM = configuration.returnApproachAltitudeM
        // Without a fresh altitude there is nothing to descend by: land.
        if let altitudeM = currentAltitudeM(now: now), altitudeM > approachM + altitudeHold.toleranceM {
            if wantedAltitudeM != approachM {
                flight?.wantedAltitudeM = approachM
                pendingLogs.append(.log(.info, "mission: over item \(index)'s point: down to \(approachM) m before "
                                        + "the landing"))
            }
            return false
        }
        self.mission?.landSettleSince = nil
        return true
    }

    static let landSettleRadiusM = 0.3
    /// Long enough for mavlink-link's trim (from 2 s of hold, at most 0.2 m/s) to take out PX4 SIH's steady
    /// 0.3–1.1 m offset from a held point; 4 s left it 2 s, and the landing began up to 0.9 m off.
    static let landSettleTimeout = Duration.seconds(8)

    /// The item the controller has just seen reached: a takeoff once navdata shows the drone in the air, an item with
    /// a point once the flight to the mission's target for it has arrived (the controller's arrival filter).
    func missionArrival() -> (item: Int, errorM: Double)? {
        guard let mission, mission.executor.state == .running else { return nil }
        let current = mission.executor.currentItem
        switch mission.executor.phase {
        case .takingOff: return activity.isAirborne ? (current, 0) : nil
        case .approaching:
            guard mission.targetItem == current, activity == .arrived,
                  target?.senderId == Self.missionSenderId else { return nil }
            return (current, lastNavigation.map(\.distanceM) ?? 0)
        case .staying, .landing: return nil
        }
    }

    /// Hands `event` to the executor and performs what it asks.
    mutating func missionStep(_ event: MissionExecutor.Event, now: MonotonicInstant) -> [ControllerAction] {
        guard mission != nil, let asked = mission?.executor.handle(event, now: now) else { return [] }
        return asked.flatMap { missionEffect($0, now: now) }
    }

    /// One executor action as the controller's own input.
    mutating func missionEffect(_ action: MissionExecutor.Action, now: MonotonicInstant) -> [ControllerAction] {
        switch action {
        case .takeoff:
            mission?.targetItem = nil
            return takeoff(now: now)
        case let .flyTo(point, altitudeM, _, _):
            let item = mission?.executor.currentItem
            mission?.targetItem = item
            return flyMissionTarget(point, altitudeM: altitudeM, now: now)
        case let .loiter(point, altitudeM, _):
            // Arrived already: the controller holds over its target until the executor's tick ends the stay.
            mission?.targetItem = nil
            return flyMissionTarget(point, altitudeM: altitudeM, now: now)
        case .hold:
            mission?.targetItem = nil
            guard target?.senderId == Self.missionSenderId || activity == .flyingToTarget || activity == .arrived
            else { return [] }
            clearTarget()
            guard activity == .flyingToTarget || activity == .arrived else { return [] }
            return apply(Transition(to: .hovering, reason: .hover), now: now)
        case .land:
            // A land item with a point was flown to first (`flyTo`): this lands where the drone is.
            mission?.targetItem = nil
            let answer = land(now: now)
            return answer.actions + apply(answer.transition, now: now)
        case .returnHome:
            mission?.targetItem = nil
            let answer = returnHome(now: now)
            return answer.actions + apply(answer.transition, now: now)
        case let .refused(refusal):
            if let checksum = mission?.checksum {
                missionStatusRecord.refusal = .init(planChecksum: checksum, item: nil,
                                                    reason: "refused: \(refusal.rawValue)")
            }
            return [.rejected(kind: "mission", reason: .missionCommandRefused),
                    .log(.warning, "mission command refused: \(refusal.rawValue)"),
                    .publishMissionStatus(missionStatus())]
        case let .publishProgress(progress): return [.publishMissionProgress(progress)]
        case let .persist(record): return [.persistMission(record)]
        }
    }

    /// The law that judges arrival at the target (and the hold over it): a mission waypoint's acceptance radius when
    /// it is wider than `--arrival-radius` (PX4's acceptance radius: the item counts as reached inside it), the
    /// controller's own otherwise, and always on a route's corner, which is passed within the controller's radius
    /// (the route's clearance from the zones counts on it). The steering still aims at the point itself. Derived
    /// from the plan and the item flown, so a restarted controller judges the same.
    /// The executor's rules with the controller's speeds: its cruise estimates a plan without a speed, and a plan's
    /// speed is flown (and estimated) at most at `planSpeedLimitMps`.
    var missionConfiguration: MissionExecutor.Configuration {
        var rules = configuration.mission
        rules.estimateSpeedMps = targetCruiseSpeedMps
        rules.speedLimitMps = planSpeedLimitMps
        rules.legAccelerationMps2 = configuration.approachBrakingMps2
        return rules
    }

    /// A stay's turn toward the next point is done within this (the law flies forward within 45°).
    static let missionStayTurnDoneDeg = 5.0
    /// The slowest turn of a stay (yaw fraction).
    static let missionStayMinimumYawFrac = 0.3

    /// The turn of a mission's stay (a waypoint's hold, a loiter) over its point: the nose toward the point of the item
    /// flown next, as the law would turn it there. The law flies forward only with the target within
    /// `alignedWithinDeg` of the nose, so without this the drone turned in place after the stay: measured on PX4 and
    /// ArduCopter SITL, 1.0–1.3 s for a 90° corner, that much longer at the point than the plan's hold or loiter
    /// (issue 37 item 6: loiter times within 1 s). nil outside a stay, when no later item has a point to fly to, or
    /// once the nose is within `missionStayTurnDoneDeg` of it: the drone's own hover (a position the autopilot holds
    /// through mavlink-link) is then left alone.
    func missionStayYawFrac(now: MonotonicInstant) -> Float? {
        guard let mission, mission.executor.state == .running, mission.executor.phase == .staying,
              target?.senderId == Self.missionSenderId, let position = lastPosition,
              let headingDeg = bodyHeadingDeg(now: now) else { return nil }
        let items = mission.executor.plan.items
        guard let index = items.firstIndex(where: { $0.id == mission.executor.currentItem }),
              let next = items[(index + 1)...].first(where: { $0.point != nil || $0.endsMission }),
              let point = next.point
        else { return nil }
        let way = Geodesy.inverse(from: position, to: point)
        guard way.distanceM > law.arrivalRadiusM else { return nil }
        let differenceDeg = Geodesy.wrapDeg180(way.initialBearingDeg - headingDeg)
        guard abs(differenceDeg) >= Self.missionStayTurnDoneDeg else { return nil }
        // Never slower than `missionStayMinimumYawFrac`: the turn ends, and with it the yaw-only setpoints (zero
        // velocity, which PX4 does not hold in place: it drifted 1.5 m from a loiter's point while the law's
        // proportional yaw crept over the last degrees), and the autopilot's own position hold is back.
        let yaw = min(max(differenceDeg * law.yawGainPerDeg, -law.maxYawFrac), law.maxYawFrac)
        let minimum = min(Self.missionStayMinimumYawFrac, law.maxYawFrac)
        return Float(yaw < 0 ? min(yaw, -minimum) : max(yaw, minimum))
    }

    /// A mission leg's speed (`missionLegSpeedMps`) is its cruise: the law's forward tilt for it in still air. Near
    /// the goal a fast cruise is braked (`ControllerConfiguration.approachBrakingMps2`).
    var targetArrivalLaw: ControlLaw {
        var targetLaw = law
        let fullTiltMps = configuration.windCompensation.fullTiltSpeedMps
        targetLaw.cruiseForwardFrac = (missionLegSpeedMps ?? targetCruiseSpeedMps) / fullTiltMps
        if let distanceM = lastNavigation?.distanceM {
            let limitMps = configuration.approachSpeedLimitMps(distanceM: distanceM, gainPerS: targetPositionGainPerS)
            targetLaw.cruiseForwardFrac = min(targetLaw.cruiseForwardFrac, limitMps / fullTiltMps)
        }
        guard let mission, let index = mission.targetItem, target?.senderId == Self.missionSenderId,
              route?.corner == nil, let item = mission.executor.plan.items.first(where: { $0.id == index }),
              case let .waypoint(_, _, _, radiusM) = item.kind, radiusM > law.arrivalRadiusM else { return targetLaw }
        targetLaw.arrivalRadiusM = radiusM
        return targetLaw
    }

    /// The speed of the mission leg flown now, m/s: the plan's last speed change before the item, else its cruise
    /// speed, never above what the controller flies at most (`ControllerConfiguration.planSpeedLimitMps`). nil off
    /// a mission leg (a plain target, a return) or when the plan sets no speed: the controller's own cruise. A
    /// route's corners are flown at the leg's speed. Derived from the plan and the item, so a restarted controller
    /// flies the same.
    var missionLegSpeedMps: Double? {
        guard let mission, let index = mission.targetItem, target?.senderId == Self.missionSenderId,
              let position = mission.executor.plan.items.firstIndex(where: { $0.id == index }),
              let speedMps = mission.executor.speed(for: position), speedMps.isFinite, speedMps > 0 else { return nil }
        return min(speedMps, planSpeedLimitMps)
    }

    /// The wind compensation for the target flown now: a mission leg's speed is also its maximum, as PX4 holds a
    /// mission's speed (the feedback may add tilt against a headwind, never more ground speed than the plan's).
    var targetCompensation: WindCompensation {
        var compensation = configuration.windCompensation
        guard let speedMps = missionLegSpeedMps ?? autopilotCruiseMps else { return compensation }
        compensation.maxSpeedMps = min(compensation.maxSpeedMps ?? speedMps, speedMps)
        // The autopilot cruise may ask for more than the AR.Drone's tilt cap: the setpoint is a ground velocity.
        compensation.maxTiltFrac = min(1, max(compensation.maxTiltFrac, speedMps / compensation.fullTiltSpeedMps))
        return compensation
    }

    /// Makes the item's point the controller's target, as an accepted target is (the plan was checked against the
    /// fence, the ceiling and the airspace when it was accepted). The same point again changes nothing.
    mutating func flyMissionTarget(_ point: GeoPoint, altitudeM: Double?, now: MonotonicInstant) -> [ControllerAction] {
        // No altitude (a land item's point): the altitude held now, not the cruise altitude a plain target gets.
        let newTarget = Target(senderId: Self.missionSenderId, sequence: 0, timestampUs: 0,
                               latitudeDeg: point.latitudeDeg, longitudeDeg: point.longitudeDeg,
                               altitudeM: (altitudeM ?? wantedAltitudeM).map(Float.init))
        let previous = target
        let moved = previous.map { !isNear($0, newTarget) } ?? true
        if let previous, !moved, previous.senderId == Self.missionSenderId, previous.altitudeM == newTarget.altitudeM,
           activity == .flyingToTarget || activity == .arrived { return [] }
        target = newTarget
        // Judged on its first solution, from where the drone is: a leg that meets a zone is flown around it.
        route = nil
        targetReceivedAt = now
        forgetResumableFlight(because: "the mission flies on")
        lastNavigation = nil
        if moved {
            resetTargetArrival()
            flyingToTargetMoved()
        }
        if activity.isAirborne && activity != .returningHome {
            let wantedM = wantedAltitude(for: newTarget)
            flight?.wantedAltitudeM = wantedM
        }
        switch activity {
        case .hovering, .flyingToTarget: return apply(Transition(to: .flyingToTarget, reason: .newTarget), now: now)
        case .arrived: return moved ? apply(Transition(to: .flyingToTarget, reason: .newTarget), now: now) : []
        case .unknown, .landed, .landing, .takingOff, .returningHome, .emergency:
            return apply(.keeping(activity, reason: .targetStored), now: now)
        }
    }

    /// The lost-pilot rule while a mission runs (`--mission-lost-pilot`): `continue` keeps flying the plan (no
    /// hover, no return or landing timer), `return` and `land` do what they say. Nil when no mission runs: the
    /// controller's own rule applies.
    mutating func missionLosePilot(cause: Reason, now: MonotonicInstant) -> (transition: Transition, plan: String)? {
        guard let mission, mission.executor.state == .running else { return nil }
        let rule = mission.executor.configuration.lostPilotRule
        if rule == .returnHome, returnRefusal() != nil { return nil }
        // The executor's own movement (return, land) is the transition below; its records and progress go out.
        let asked = self.mission?.executor.handle(.pilotLost, now: now) ?? []
        for action in asked {
            if case .persist = action { pendingLogs += missionEffect(action, now: now) }
            if case .publishProgress = action { pendingLogs += missionEffect(action, now: now) }
        }
        switch rule {
        case .continueMission:
            // The target stays the item's: its arrival is still the item's.
            return (.keeping(activity, reason: cause), "the mission continues (--mission-lost-pilot continue)")
        case .returnHome:
            self.mission?.targetItem = nil
            let reason: Reason = cause == .groundLinkLost ? .groundLinkLostReturn : .pilotLostReturn
            return (returnTransition(goal: .home, reason: reason, now: now),
                    "returning home (--mission-lost-pilot return)")
        case .land:
            self.mission?.targetItem = nil
            clearTarget()
            return (Transition(to: .landing, reason: cause), "landing (--mission-lost-pilot land)")
        }
    }

    /// The acknowledgement of a plan taken: its idle record persisted (replacing another plan's) and its progress
    /// published, which carries its checksum.
    func missionAcknowledgement(now: MonotonicInstant) -> [ControllerAction] {
        guard let executor = mission?.executor else { return [] }
        return [.persistMission(executor.record(now: now)), .publishMissionProgress(executor.progress(now: now))]
    }

    /// A refused upload: logged, counted, and in the status with its item for the ground to print.
    mutating func missionRefusal(_ plan: MissionPlan, from senderId: String, item: Int?,
                                 because why: String) -> [ControllerAction] {
        missionStatusRecord.refusal = .init(planChecksum: plan.checksum, item: item, reason: why)
        return [.rejected(kind: "mission", reason: .missionUploadRefused),
                .log(.warning, "mission \(CRC32.text(plan.checksum)) from \(senderId) refused: \(why)"),
                .publishMissionStatus(missionStatus())]
    }

    /// A refused command: logged, counted, and in the status (the plan it named, no item) for the ground to print.
    mutating func missionCommandRefusal(_ command: MissionCommand, because why: String) -> [ControllerAction] {
        missionStatusRecord.refusal = .init(planChecksum: command.planChecksum, item: nil,
                                            reason: "\(command.kind) refused: \(why)")
        return [.rejected(kind: "mission", reason: .missionCommandRefused),
                .log(.warning, "mission \(command.kind) from \(command.senderId) refused: \(why)"),
                .publishMissionStatus(missionStatus())]
    }
}

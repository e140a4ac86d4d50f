import DroneSimulation
import MAVLink
import Navigation

/// The mission protocol for a plain waypoint list: upload, download (MISSION_REQUEST_LIST, each item by
/// MISSION_REQUEST_INT), MISSION_SET_CURRENT, start (MISSION_START or AUTO.MISSION, from the ground too: PX4 takes
/// off first), MISSION_CURRENT and MISSION_ITEM_REACHED; at the end PX4 holds where it is.
extension MAVLinkSimulatorSession {
    mutating func handleMission(_ message: MAVLinkInbound, from packet: MAVLinkPacket) -> [SimulatorAction] {
        let reply: SimulatedMission.Reply?
        switch message {
        case .missionCount(let count) where isForUs(count.targetSystem):
            reply = mission.receive(count, from: packet.systemId, packet.componentId)
        case .missionItemInt(let item) where isForUs(item.targetSystem):
            reply = mission.receive(item)
        case .missionRequestList(let list) where isForUs(list.targetSystem) && list.missionType == 0:
            return send(MissionCount(count: UInt16(mission.items.count), targetSystem: packet.systemId,
                                     targetComponent: packet.componentId, missionType: 0))
        case .missionRequestInt(let request) where isForUs(request.targetSystem) && request.missionType == 0:
            guard Int(request.seq) < mission.items.count else { return [] }
            var item = mission.items[Int(request.seq)]
            item.targetSystem = packet.systemId
            item.targetComponent = packet.componentId
            return send(item)
        case .missionSetCurrent(let set) where isForUs(set.targetSystem):
            // PX4 moves where its mission mode starts, in any mode, and says so in MISSION_CURRENT.
            guard Int(set.seq) < mission.items.count else { return [] }
            mission.current = Int(set.seq)
            return send(mission.currentMessage)
        case .missionClearAll(let clear) where isForUs(clear.targetSystem):
            mission.replace(with: [])
            if mode == .mission { mode = .hold }
            reply = .ack(MissionAck(type: MissionAck.accepted, targetSystem: packet.systemId,
                                    targetComponent: packet.componentId, missionType: clear.missionType))
        default:
            reply = nil
        }
        switch reply {
        case .request(let request)?: return send(request)
        case .ack(let ack)?:
            let note = ack.type == MissionAck.accepted ? "mission of \(mission.items.count) items stored"
                : "mission upload refused (MAV_MISSION_RESULT \(ack.type))"
            return send(ack) + [.log(note)]
        case nil: return []
        }
    }

    /// MISSION_START or a switch to AUTO.MISSION: armed, with a mission; on the ground it takes off first.
    mutating func startMission(nowUs: Int64) -> (MAVResult, String?) {
        guard isArmed, !mission.items.isEmpty, drone.flightState != .landing else {
            return (.denied, mission.items.isEmpty ? "mission refused: no mission uploaded"
                : "mission refused: not armed")
        }
        if drone.flightState == .landed {
            let home = homeAltitudeAMSLM
            let altitude = mission.items.lazy.compactMap { Self.altitudeM($0, homeAltitudeAMSLM: home) }.first
            _ = takeoff(altitudeAMSLM: Float(homeAltitudeAMSLM + (altitude ?? parameters.takeoffAltitudeM)),
                        nowUs: nowUs)
        }
        if mission.isComplete { mission.current = 0 }
        mission.isStarted = true
        mode = .mission
        goal = nil
        return (.accepted, "mission started at item \(mission.current) of \(mission.items.count)")
    }

    /// Flies the current item; an item reached says so and the next one follows.
    mutating func flyMission() -> [SimulatorAction] {
        guard drone.flightState != .takingOff else { return [] }
        guard mission.current < mission.items.count else {
            if drone.command != .hover { drone.applyProgressiveCommand(.hover) }
            return []
        }
        let item = mission.items[mission.current]
        switch item.command {
        case MAVCmd.navReturnToLaunch:
            return reached(item) + [.log("mission: " + (returnToLaunch().1 ?? "return"))]
        case MAVCmd.navWaypoint, MAVCmd.navTakeoff, MAVCmd.navLand:
            let altitude = missionAltitudeM(item) ?? drone.altitudeM
            let point = item.x == 0 && item.y == 0 ? drone.truePosition
                : GeoPoint(latitudeDeg: Double(item.x) / 1e7, longitudeDeg: Double(item.y) / 1e7)
            let target = GoalSteering(point, home: drone.home,
                                      altitudeM: item.command == MAVCmd.navLand ? drone.altitudeM
                                          : min(max(altitude, 1), drone.parameters.altitudeMaxM))
            let acceptanceM = max(Double(item.params[1]).isFinite ? Double(item.params[1]) : 0, 1)
            guard target.horizontalDistanceM(from: drone) < acceptanceM,
                  abs(target.altitudeM - drone.altitudeM) < 0.5 else {
                drone.applyProgressiveCommand(target.command(for: drone))
                return []
            }
            if item.command == MAVCmd.navLand {
                drone.applyProgressiveCommand(.hover)
                drone.applyReference(bits: 0)
            }
            return reached(item)
        default:
            // DO_CHANGE_SPEED, gimbal, camera…: nothing to fly.
            return reached(item)
        }
    }

    private mutating func reached(_ item: MissionItemInt) -> [SimulatorAction] {
        mission.current += 1
        var actions = send(MissionItemReached(seq: item.seq)) + send(mission.currentMessage)
        actions.append(.log("mission item \(item.seq), \(Self.name(ofCommand: item.command)), reached"
                            + (mission.isComplete ? ": mission complete, holding" : "")))
        return actions
    }

    /// The item's altitude above home; nil when it has none.
    func missionAltitudeM(
        _ item: MissionItemInt) -> Double? { Self.altitudeM(item, homeAltitudeAMSLM: homeAltitudeAMSLM) }

    static func altitudeM(_ item: MissionItemInt, homeAltitudeAMSLM: Double) -> Double? {
        guard item.z.isFinite, item.command == MAVCmd.navWaypoint || item.command == MAVCmd.navTakeoff else {
            return nil
        }
        switch item.frame {
        case MAVFrame.global, MAVFrame.globalInt: return Double(item.z) - homeAltitudeAMSLM
        default: return Double(item.z)
        }
    }
}

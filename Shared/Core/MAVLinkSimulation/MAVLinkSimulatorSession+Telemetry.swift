import DroneSimulation
import MAVLink
import Navigation

/// The streams PX4 sends, at their intervals, with PX4's values where a client judges them (SYS_STATUS bits as
/// PX4 SITL sends them, so MAVSDK's health checks pass as they do against PX4).
extension MAVLinkSimulatorSession {
    /// PX4 SITL's SYS_STATUS sensor words once its estimator runs (measured); bit 28 = pre-arm checks pass.
    static let sensorsPresent: UInt32 = 0x0300_402D
    static let sensorsEnabled: UInt32 = 0x0301_402D
    static let sensorsHealth: UInt32 = 0x2320_C83F
    static let preArmCheckBit: UInt32 = 1 << 28
    /// MAVLink 2, COMMAND_INT, PARAM_FLOAT, MISSION_INT, SET_POSITION_TARGET_LOCAL_NED, … as PX4 (measured).
    static let capabilities: UInt64 = 59647

    mutating func telemetry(nowUs: Int64) -> [SimulatorAction] {
        var actions: [SimulatorAction] = []
        for (id, interval) in intervalsUs.sorted(by: { $0.key < $1.key }) {
            let due = nextSendUs[id] ?? nowUs
            guard nowUs >= due else { continue }
            nextSendUs[id] = max(due + interval, nowUs)
            actions += message(id, nowUs: nowUs)
        }
        return actions
    }

    /// One message now; none for a position or home not known yet.
    mutating func message(_ id: UInt32, nowUs: Int64) -> [SimulatorAction] {
        let timeBootMs = UInt32(truncatingIfNeeded: (nowUs - startUs) / 1000)
        let ready = isPositionReady(nowUs: nowUs)
        switch id {
        case Heartbeat.messageId:
            return send(heartbeat)
        case GlobalPositionInt.messageId where ready:
            // The estimator's position, as PX4's EKF2 reports it (smooth); the raw fix goes in GPS_RAW_INT.
            let estimate = estimator.position(of: drone)
            let altitudeM = drone.altitudeM
            return send(GlobalPositionInt(
                timeBootMs: timeBootMs, latE7: Self.e7(estimate.latitudeDeg), lonE7: Self.e7(estimate.longitudeDeg),
                altMm: Self.mm(homeAltitudeAMSLM + altitudeM), relativeAltMm: Self.mm(altitudeM),
                vxCmps: Self.cm(drone.velocityNorthMps), vyCmps: Self.cm(drone.velocityEastMps),
                vzCmps: Self.cm(-drone.verticalSpeedMps), hdgCdeg: UInt16((drone.headingDeg * 100).rounded()) % 36000))
        case LocalPositionNED.messageId where ready:
            // PX4's local origin is where its estimator started: here home.
            return send(LocalPositionNED(timeBootMs: timeBootMs, xM: Float(estimator.northM(of: drone)),
                                         yM: Float(estimator.eastM(of: drone)),
                                         zM: Float(-drone.altitudeM), vxMps: Float(drone.velocityNorthMps),
                                         vyMps: Float(drone.velocityEastMps), vzMps: Float(-drone.verticalSpeedMps)))
        case HomePosition.messageId where ready:
            return send(HomePosition(latE7: Self.e7(drone.home.latitudeDeg), lonE7: Self.e7(drone.home.longitudeDeg),
                                     altMm: Self.mm(homeAltitudeAMSLM), timeUs: UInt64(max(0, nowUs - startUs))))
        case AutopilotVersion.messageId:
            // 1.15.0 release (type 255), as PX4 packs major.minor.patch.type.
            return send(AutopilotVersion(capabilities: Self.capabilities, flightSwVersion: 0x010F_00FF, uid: 1))
        case MissionCurrent.messageId:
            return send(mission.currentMessage)
        case Attitude.messageId:
            return send(Attitude(timeBootMs: timeBootMs, rollRad: Float(drone.rollDeg * .pi / 180),
                                 pitchRad: Float(drone.pitchDeg * .pi / 180),
                                 yawRad: Float(Geodesy.wrapDeg180(drone.headingDeg) * .pi / 180),
                                 yawSpeedRadps: Float(drone.yawRateDegPerS * .pi / 180)))
        case GPSRawInt.messageId:
            // The receiver's latest raw fix, noise and all (the truth before the first fix).
            let truth = drone.truePosition
            let fix = estimator.lastFix ?? GPSReading(latitudeDeg: truth.latitudeDeg, longitudeDeg: truth.longitudeDeg,
                                                      elevationM: drone.altitudeM, speedMps: 0, satelliteCount: 9)
            return send(GPSRawInt(timeUs: UInt64(max(0, nowUs - startUs)), latE7: Self.e7(fix.latitudeDeg),
                                  lonE7: Self.e7(fix.longitudeDeg),
                                  altMm: Self.mm(homeAltitudeAMSLM + fix.elevationM),
                                  eph: 80, epv: 120, fixType: 3, satellitesVisible: 12,
                                  hAccMm: UInt32(max(drone.parameters.gpsNoiseM, 0.1) * 1000)))
        case ExtendedSysState.messageId:
            let landed: ExtendedSysState.LandedState =
                switch drone.flightState {
                case .landed: .onGround
                case .takingOff: .takeoff
                case .landing: .landing
                case .hovering, .flying: drone.isEmergency ? .onGround : .inAir
                }
            return send(ExtendedSysState(landedState: landed))
        case SysStatus.messageId:
            var status = SysStatus(voltageBatteryMv: batteryVoltageMv, batteryRemainingPct: Self.percent(
                drone.batteryPct))
            if ready {
                status.sensorsPresent = Self.sensorsPresent
                status.sensorsEnabled = Self.sensorsEnabled
                let armable = !isArmed && drone.batteryPct > drone.parameters.criticalBatteryPct
                status.sensorsHealth = Self.sensorsHealth | (armable ? Self.preArmCheckBit : 0)
            }
            return send(status)
        case BatteryStatus.messageId:
            var battery = BatteryStatus(batteryRemainingPct: Self.percent(drone.batteryPct))
            // PX4 puts the pack's total in the first cell (measured), a LiPo (type 1) for propulsion (function 1).
            battery.voltagesMv[0] = batteryVoltageMv
            battery.batteryFunction = 1
            battery.type = 1
            return send(battery)
        default:
            return []
        }
    }

    public var heartbeat: Heartbeat {
        if autopilot == .ardupilot { return arduCopterHeartbeat }
        // PX4's base mode: custom mode always; manual input in the manual modes; auto modes also guided and auto.
        var base = MAVModeFlag.customModeEnabled | MAVModeFlag.stabilizeEnabled
        switch mode.main {
        case PX4Mode.mainAuto: base |= MAVModeFlag.guidedEnabled | MAVModeFlag.autoEnabled
        case PX4Mode.mainPositionControl, PX4Mode.mainAltitudeControl, PX4Mode.mainManual:
            base |= MAVModeFlag.manualInputEnabled
        default: break
        }
        if isArmed { base |= MAVModeFlag.safetyArmed }
        let status = !isArmed ? MAVState.standby : modeBeforeFailsafe != nil ? MAVState.critical : MAVState.active
        return Heartbeat(customMode: mode.customMode, type: MAVType.quadrotor, autopilot: MAVAutopilot.px4,
                         baseMode: base, systemStatus: status)
    }

    /// A 3S pack from 12.6 V full to 10.5 V empty.
    var batteryVoltageMv: UInt16 { UInt16(Self.clamp(10_500 + 2_100 * drone.batteryPct / 100, 0, 65_000)) }

    static func e7(_ degrees: Double) -> Int32 { Int32(clamp((degrees * 1e7).rounded(), -1.8e9, 1.8e9)) }
    static func mm(_ metres: Double) -> Int32 { Int32(clamp((metres * 1000).rounded(), -2e9, 2e9)) }
    static func cm(
        _ metresPerSecond: Double) -> Int16 { Int16(clamp((metresPerSecond * 100).rounded(), -32_000, 32_000)) }
    static func percent(_ pct: Double) -> Int8 { Int8(clamp(pct.rounded(.up), 0, 100)) }
    static func clamp(_ value: Double, _ low: Double, _ high: Double) -> Double {
        value.isNaN ? low : min(high, max(low, value))
    }
}

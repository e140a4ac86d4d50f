#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import MAVLink
import QuadProtocol

/// The latest of each telemetry message from the autopilot, turned into the bus messages drone-link publishes so
/// that navigator and drone-controller never learn which kind of drone they fly.
struct VehicleTelemetry: Sendable {
    var heartbeat: Heartbeat?
    var sysStatus: SysStatus?
    var battery: BatteryStatus?
    var position: GlobalPositionInt?
    var attitude: Attitude?
    var localPosition: LocalPositionNED?
    var gps: GPSRawInt?
    var extendedState: ExtendedSysState?
    /// Set when our force-disarm was accepted; cleared by the next arm. Reported as the AR.Drone emergency bit.
    var emergency = false

    static let flyingBit: UInt32 = 1 << 0
    static let lowBatteryBit: UInt32 = 1 << 15
    static let emergencyBit: UInt32 = 1 << 31
    static let lowBatteryPct: UInt8 = 20

    var isArmed: Bool { heartbeat?.isArmed ?? false }
    var flavor: AutopilotFlavor { heartbeat.map { AutopilotFlavor(autopilot: $0.autopilot) } ?? .px4 }
    /// In the mode that takes our velocity setpoints (PX4 OFFBOARD, ArduPilot GUIDED).
    var isInSetpointMode: Bool { heartbeat.map { flavor.isSetpointMode(customMode: $0.customMode) } ?? false }
    var isInMissionMode: Bool { heartbeat.map { flavor.isMissionMode(customMode: $0.customMode) } ?? false }
    var isInLandMode: Bool { heartbeat.map { flavor.isLandMode(customMode: $0.customMode) } ?? false }
    var modeName: String { heartbeat.map { flavor.modeName(customMode: $0.customMode) } ?? "unknown" }

    var landedState: ExtendedSysState.LandedState {
        if let raw = extendedState?.landedState, let state = ExtendedSysState.LandedState(rawValue: raw),
           state != .undefined {
            return state
        }
        // Without EXTENDED_SYS_STATE: armed counts as in the air (conservative: never "landed" while motors run).
        return isArmed ? .inAir : .onGround
    }

    var isAirborne: Bool { isArmed && landedState != .onGround }

    var batteryPercent: UInt8? {
        if let pct = sysStatus?.batteryRemainingPct, pct >= 0 { return UInt8(min(pct, 100)) }
        if let pct = battery?.batteryRemainingPct, pct >= 0 { return UInt8(min(pct, 100)) }
        return nil
    }

    /// Heading in degrees [0, 360): GLOBAL_POSITION_INT's hdg, else ATTITUDE's yaw.
    var headingDeg: Float? {
        if let hdg = position?.hdgCdeg, hdg != .max { return Float(hdg % 36000) / 100 }
        guard let yaw = attitude?.yawRad, yaw.isFinite else { return nil }
        let deg = yaw * 180 / .pi
        return deg < 0 ? deg + 360 : (deg >= 360 ? 0 : deg)
    }

    /// The AR.Drone-shaped summary, or nil before the first position (no altitude, no velocity yet).
    /// `moving`: a non-zero setpoint is in force (AR.Drone's "flying" against "hovering"). `landing`: the link flies
    /// a landing itself (`OffboardLanding`): landing until the motors stop, whatever the landed state flickers to.
    func droneState(navdataSequence: UInt32, moving: Bool, landing: Bool = false) -> DroneState? {
        guard let position else { return nil }
        let controlState: DroneState.ControlState
        switch (isArmed, landedState) {
        case (true, _) where landing: controlState = .landing
        case (false, _), (_, .onGround), (_, .undefined): controlState = .landed
        case (true, .takeoff): controlState = .takingOff
        case (true, .landing): controlState = .landing
        case (true, .inAir): controlState = isInLandMode ? .landing : (moving ? .flying : .hovering)
        }
        var bits: UInt32 = controlState.isAirborne || controlState == .takingOff ? Self.flyingBit : 0
        let battery = batteryPercent ?? 100
        if battery < Self.lowBatteryPct { bits |= Self.lowBatteryBit }
        if emergency { bits |= Self.emergencyBit }
        // NED ground velocity into the body frame (x forward, y right) by the heading; z up as in navdata.
        let headingRad = Double(headingDeg ?? 0) * .pi / 180
        let north = Double(position.vxCmps) / 100
        let east = Double(position.vyCmps) / 100
        let forward = north * cos(headingRad) + east * sin(headingRad)
        let right = -north * sin(headingRad) + east * cos(headingRad)
        let yawDeg = headingDeg.map { $0 >= 180 ? $0 - 360 : $0 } ?? 0
        return DroneState(
            sequence: 0, timestampUs: 0, navdataSequence: navdataSequence, stateBits: bits,
            controlState: controlState, batteryPercent: battery, altitudeM: Float(position.relativeAltMm) / 1000,
            pitchDeg: (attitude?.pitchRad ?? 0) * 180 / .pi, rollDeg: (attitude?.rollRad ?? 0) * 180 / .pi,
            yawDeg: yawDeg, velocityXMps: Float(forward), velocityYMps: Float(right),
            velocityZMps: -Float(position.vzCmps) / 100, magnetoHeadingDeg: headingDeg)
    }

    /// The fused position while the GPS has at least a 2D fix; nil otherwise (like drone-link without a fix).
    func positionFix() -> PositionFix? {
        guard let position, let gps, gps.fixType >= 2 else { return nil }
        let lat = Double(position.latE7) / 1e7
        let lon = Double(position.lonE7) / 1e7
        guard (-90...90).contains(lat), (-180...180).contains(lon), !(lat == 0 && lon == 0) else { return nil }
        let accuracyM: Float? = gps.hAccMm > 0 ? Float(gps.hAccMm) / 1000 : nil
        return PositionFix(sequence: 0, timestampUs: 0, latitudeDeg: lat, longitudeDeg: lon,
                           altitudeM: Float(position.altMm) / 1000, headingDeg: nil, horizontalAccuracyM: accuracyM,
                           satellites: gps.satellitesVisible == .max ? 0 : gps.satellitesVisible, source: .droneGPS)
    }
}

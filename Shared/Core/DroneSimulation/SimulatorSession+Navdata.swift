#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ARDrone
import Clocks
import Navigation

extension SimulatorSession {
    /// Option tags the simulator can fill in; "full" navdata (navdata_demo FALSE) sends all of them.
    static let modelledOptionTags: [UInt16] = [
        NavdataTag.demo, NavdataTag.time, NavdataTag.visionDetect, NavdataTag.magneto, NavdataTag.wifi, NavdataTag.gps,
    ]

    /// The next navdata datagram. Mutating: it advances the navdata sequence and samples noisy sensors.
    mutating func navdataPacket(nowUs: Int64) -> [UInt8] {
        navdataSequence &+= 1
        var options: [NavdataOption] = []
        if !isBootstrap {
            let tags = SimulatorSession.modelledOptionTags.filter {
                !isNavdataDemo || navdataOptionsMask & (1 << UInt32($0)) != 0
            }
            let needsSensors = tags.contains(NavdataTag.magneto) || tags.contains(NavdataTag.gps)
            let readings = needsSensors ? drone.readSensors() : nil
            options = tags.compactMap { option(tag: $0, readings: readings) }
        }
        let state = stateFlags(now: MonotonicInstant(us: nowUs))
        return NavdataPacket(state: state, sequence: navdataSequence, options: options).encoded()
    }

    func option(tag: UInt16, readings: SensorReadings?) -> NavdataOption? {
        switch tag {
        case NavdataTag.demo:
            let demo = drone.demoReadings
            return .demo(NavdataDemo(
                controlState: demo.controlState, batteryPercent: demo.batteryPct, pitchMilliDeg: demo.pitchMdeg,
                rollMilliDeg: demo.rollMdeg, yawMilliDeg: demo.yawMdeg, altitudeMm: demo.altitudeMm,
                velocityXMmps: demo.vxMmps, velocityYMmps: demo.vyMmps, velocityZMmps: demo.vzMmps
            ))
        case NavdataTag.time:
            let elapsedUs = UInt64(max(0, drone.elapsedS) * 1_000_000)
            return .time(NavdataTime(
                seconds: UInt32(truncatingIfNeeded: elapsedUs / 1_000_000) & 0x7FF,
                microseconds: UInt32(elapsedUs % 1_000_000)
            ))
        case NavdataTag.visionDetect:
            return NavdataOption.emptyVisionDetect
        case NavdataTag.magneto:
            guard let readings else { return nil }
            let heading = Float(readings.magnetoHeadingDeg)
            return .magneto(NavdataMagneto(
                headingUnwrappedDeg: heading, headingGyroUnwrappedDeg: heading, headingFusionUnwrappedDeg: heading
            ))
        case NavdataTag.wifi:
            return .wifi(NavdataWifi(linkQuality: isLinkLost ? 0 : 1))
        case NavdataTag.gps:
            guard let gps = readings?.gps else { return nil }
            return .gps(NavdataGPS(
                latitudeDeg: gps.latitudeDeg, longitudeDeg: gps.longitudeDeg, elevationM: gps.elevationM, hdop: 0.9,
                zeroValidated: 1, latitude0Deg: drone.home.latitudeDeg, longitude0Deg: drone.home.longitudeDeg,
                latitudeFusedDeg: gps.latitudeDeg, longitudeFusedDeg: gps.longitudeDeg, speed: Float(gps.speedMps),
                degree: Float(courseOverGroundDeg), satelliteCount: gps.satelliteCount
            ))
        default:
            return nil
        }
    }

    /// Direction of travel over the ground; 0 when (almost) still.
    var courseOverGroundDeg: Double {
        guard drone.groundSpeedMps > 0.2 else { return 0 }
        return Geodesy.wrapDeg360(atan2(drone.velocityEastMps, drone.velocityNorthMps) * 180 / .pi)
    }

    /// The navdata state word at `now`.
    public func stateFlags(now: MonotonicInstant) -> DroneStateFlags {
        let nowUs = now.us
        var flags: DroneStateFlags = [
            .picVersionOK, .atCodecThreadOn, .navdataThreadOn, .videoThreadOn, .acquisitionThreadOn,
        ]
        if drone.areMotorsOn { flags.formUnion([.flying, .altitudeControlActive]) }
        if isCommandAckSet { flags.insert(.controlCommandAck) }
        if isNavdataDemo { flags.insert(.navdataDemo) }
        if isBootstrap { flags.insert(.navdataBootstrap) }
        if isLinkLost { flags.insert(.comLost) }
        if drone.isLowBattery { flags.insert(.lowBattery) }
        if lastATUs.map({ nowUs - $0 > configuration.comWatchdog.us }) ?? true { flags.insert(.comWatchdog) }
        if drone.isEmergency { flags.insert(.emergency) }
        return flags
    }
}

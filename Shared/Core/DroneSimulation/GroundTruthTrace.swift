import TextSupport

/// Formats the simulator's ground truth as CSV, one row per physics sample, for later comparison with
/// what the flight stack believed. The first six columns are the contract; the rest are extras.
public enum GroundTruthTrace {
    public static let header =
        "time_s,lat,lon,altitude_m,heading_deg,flight_state,speed_mps,vertical_speed_mps,battery_pct,"
        + "emergency,link_lost,pcmd_flag,pcmd_roll,pcmd_pitch,pcmd_gaz,pcmd_yaw"

    /// One CSV line (no newline). `flight_state` is `emergency` while the emergency flag is set,
    /// otherwise the state's name (`landed`, `taking_off`, `hovering`, `flying`, `landing`).
    public static func row(timeS: Double, drone: SimulatedDrone) -> String {
        let position = drone.truePosition
        let state = drone.isEmergency ? "emergency" : drone.flightState.traceName
        let fields: [String] = [
            fixed(timeS, 3),
            fixed(position.latitudeDeg, 8),
            fixed(position.longitudeDeg, 8),
            fixed(drone.altitudeM, 3),
            fixed(drone.headingDeg, 2),
            state,
            fixed(drone.groundSpeedMps, 3),
            fixed(drone.verticalSpeedMps, 3),
            fixed(drone.batteryPct, 2),
            drone.isEmergency ? "1" : "0",
            drone.isLinkLost ? "1" : "0",
            String(drone.command.flag),
            fixed(drone.command.roll, 3),
            fixed(drone.command.pitch, 3),
            fixed(drone.command.gaz, 3),
            fixed(drone.command.yaw, 3),
        ]
        return fields.joined(separator: ",")
    }

    /// The trace's number text: "nan" for any non-finite value, Swift's own text past Int64.
    static func fixed(_ value: Double, _ decimals: Int) -> String {
        guard value.isFinite else { return "nan" }
        return DecimalText.fixed(value, fractionDigits: decimals) ?? String(value)
    }
}

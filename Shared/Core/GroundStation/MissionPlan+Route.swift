import Mission

/// A route file (GPX or CSV, read by `RouteFile`: the one route parser) as a mission of waypoint items. It lives
/// here, not in Mission, because route files are read on the ground: the board gets the plan as its payload, and
/// Mission (which the board links) stays free of GroundStation and of what GroundStation imports (GPSD).
extension MissionPlan {
    /// `defaultAltitudeM`: for points without an altitude (GPX's `<ele>` is above sea level, so never used).
    public static func route(text: String, fileName: String, defaultAltitudeM: Double,
                             acceptanceRadiusM: Double = MissionItem.defaultAcceptanceRadiusM,
                             cruiseSpeedMps: Double? = nil) throws(RouteParseError) -> MissionPlan {
        let waypoints = try RouteFile.parse(text: text, fileName: fileName)
        return MissionPlan(kinds: waypoints.map { waypoint in
            .waypoint(.init(latitudeDeg: waypoint.latitudeDeg, longitudeDeg: waypoint.longitudeDeg),
                      altitudeM: waypoint.altitudeM ?? defaultAltitudeM, holdTime: .zero,
                      acceptanceRadiusM: acceptanceRadiusM)
        }, cruiseSpeedMps: cruiseSpeedMps)
    }
}

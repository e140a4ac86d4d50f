/// Filters over many drones and topic rewriting, for tools that watch the whole fleet (the telemetry logger).
extension Topics {
    /// Every topic of every drone (the default of `telemetry-logger tail`).
    public static let everything = "quad/#"

    /// What the telemetry logger records, for every drone: telemetry, presence, targets, commands, pilot
    /// claims and the airspace (its upload and status: `airspace/#` matches `airspace` too). Disjoint, so each
    /// message matches exactly one of them.
    public static let recordedFilters: [String] = recordedFilters(droneLevel: "+")

    /// `recordedFilters` for one drone only (`telemetry-logger record --drone ID`).
    public static func recordedFilters(drone: DroneID) -> [String] { recordedFilters(droneLevel: drone.rawValue) }

    private static func recordedFilters(droneLevel: String) -> [String] {
        ["telemetry/#", "status/#", target.path, command.path, "pilot/#", "\(airspace.path)/#"]
            .map { "quad/\(droneLevel)/\($0)" }
    }

    /// `filter` narrowed to one drone (`telemetry-logger tail --drone ID --topic FILTER`): `#` and `quad/#` become
    /// `quad/ID/#`, `quad/+/…` becomes `quad/ID/…`, `quad/ID/…` stays. Nil when the filter names another drone
    /// or lies outside `quad/`, where no drone level exists to narrow.
    public static func restricting(_ filter: String, to drone: DroneID) -> String? {
        if filter == "#" || filter == everything { return all(drone: drone) }
        let parts = filter.split(separator: "/", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == "quad", parts[1] == "+" || String(parts[1]) == drone.rawValue else {
            return nil
        }
        return "quad/\(drone.rawValue)/\(parts[2])"
    }

    /// Topics whose messages a ground logger can ask the board's logger for (`telemetry-logger sync`): telemetry,
    /// each topic written by one publisher on the board with its own sequence counter.
    public static func isSyncable(_ topic: String) -> Bool {
        let parts = topic.split(separator: "/", maxSplits: 3, omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "quad" && parts[2] == "telemetry" && !parts[3].isEmpty
            && !parts[3].contains(where: { $0 == "+" || $0 == "#" || $0 == "/" })
    }

    /// A requester name in `log/sync/response/<requester>`: one topic level, `[a-z0-9-]{1,64}`.
    public static func isValidSyncRequester(_ name: String) -> Bool {
        (1...64).contains(name.utf8.count)
            && name.utf8.allSatisfy { ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2D }
    }

    /// An MQTT 5 shared subscription: the broker hands each matching message to one member of `group`.
    public static func shared(_ filter: String, group: String) -> String { "$share/\(group)/\(filter)" }

    /// A share group name is one non-empty topic level without wildcards.
    public static func isValidShareGroup(_ group: String) -> Bool {
        !group.isEmpty && !group.contains(where: { $0 == "/" || $0 == "+" || $0 == "#" })
    }

    /// True for presence topics, `quad/<id>/status/<service>[/…]`.
    public static func isStatus(_ topic: String) -> Bool {
        let parts = topic.split(separator: "/", maxSplits: 3, omittingEmptySubsequences: false)
        return parts.count >= 4 && parts[0] == "quad" && parts[2] == Topics.presence.path
    }

    /// `topic` with its drone level replaced (`quad/a/target` → `quad/b/target`); nil unless it is `quad/<id>/…`.
    public static func replacingDrone(in topic: String, with drone: DroneID) -> String? {
        let parts = topic.split(separator: "/", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == "quad" else { return nil }
        return "quad/\(drone.rawValue)/\(parts[2])"
    }
}

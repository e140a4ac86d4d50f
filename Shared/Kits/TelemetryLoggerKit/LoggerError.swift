/// Why a telemetry-logger command could not do its job; the text is what the user sees after `Error:`.
enum LoggerError: Error, Equatable, CustomStringConvertible {
    case cannotRead(path: String, reason: String)
    case cannotCreate(path: String, reason: String)
    case notWritableDirectory(path: String, reason: String)
    /// gpx, kml and svg need at least one PositionFix.
    case noPositionFixes(logs: [String], drone: String?)
    /// `export --drone ID` and the logs hold nothing of that drone.
    case noRecordsForDrone(drone: String, logs: [String], seen: [String])
    /// Bytes that are no `.qlog` file at all (e.g. a CSV passed by mistake).
    case notAFlightLog(path: String, reason: String)
    /// `replay --live` while a drone's controller is online.
    case liveReplayRefused(String)
    case badOption(String)
    /// `sync` asked and nobody answered.
    case noSyncAnswer(drone: String, topic: String, attempts: Int, timeoutMs: Int)

    var description: String {
        switch self {
        case let .cannotRead(path, reason): "cannot read \(path): \(reason)"
        case let .cannotCreate(path, reason): "cannot create \(path): \(reason)"
        case let .notWritableDirectory(path, reason): "log directory \(path) is not usable: \(reason)"
        case let .noPositionFixes(logs, drone):
            "no position fixes\(drone.map { " for \($0)" } ?? "") in \(logs.joined(separator: ", "))"
        case let .noRecordsForDrone(drone, logs, seen):
            "no messages of drone \(drone) in \(logs.joined(separator: ", ")); "
                + (seen.isEmpty ? "they hold no drone's" : "they hold \(seen.joined(separator: ", "))")
        case let .notAFlightLog(path, reason): "\(path): \(reason)"
        case let .liveReplayRefused(reason): "replay --live refused: \(reason)"
        case let .badOption(text): text
        case let .noSyncAnswer(drone, topic, attempts, timeoutMs):
            "no answer from the board's logger for drone \(drone): asked \(attempts) times on \(topic), waiting "
                + """
                    \(timeoutMs) ms each (is `telemetry-logger record --answer-sync` running on the board, and the \
                    bridge up?)
                    """
        }
    }
}

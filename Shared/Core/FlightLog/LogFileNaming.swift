import Clocks
import QuadProtocol

/// File names for logs: `<drone>-<UTC yyyyMMdd-HHmmss>.qlog`, the time being when the file was started
/// (logger start, takeoff or size rotation). They sort by time in a directory listing.
public enum LogFileNaming {
    public static let fileExtension = "qlog"

    /// `collisionIndex` > 0 appends `-<n>` for the rare case of two files started within one second
    /// (the executable opens with O_EXCL and retries with the next index).
    public static func fileName(drone: DroneID, started: WallInstant, collisionIndex: Int = 0) -> String {
        let stamp = UTCDateTime(started).compactStamp
        let suffix = collisionIndex > 0 ? "-\(collisionIndex)" : ""
        return "\(drone.rawValue)-\(stamp)\(suffix).\(fileExtension)"
    }
}

/// Decides when the logger closes the current file and starts a new one. Files are per flight: a new file at
/// logger start and at each takeoff, plus a new file whenever the next record would push the current one past
/// `maxBytes` (which also keeps every file small enough for `LogReader` to read into memory).
public struct LogRotationPolicy: Sendable, Equatable {
    /// 64 MiB: about an hour of full-rate telemetry for one drone.
    public static let defaultMaxBytes = 64 * 1024 * 1024

    public let maxBytes: Int

    /// `maxBytes` below 1 KiB is raised to 1 KiB so a header and a few records always fit.
    public init(maxBytes: Int = LogRotationPolicy.defaultMaxBytes) {
        self.maxBytes = max(maxBytes, 1024)
    }

    public enum Reason: Sendable, Equatable {
        /// No file is open yet.
        case loggerStart
        /// The drone just took off: each flight gets its own file.
        case takeoff
        /// The current file would exceed `maxBytes`.
        case sizeLimit
    }

    /// What the logger knows about the open file.
    public struct OpenFile: Sendable, Equatable {
        public var byteCount: Int
        public var recordCount: Int

        public init(byteCount: Int, recordCount: Int) {
            self.byteCount = byteCount
            self.recordCount = recordCount
        }
    }

    /// Called before writing each record: a reason to start a new file first, or nil to append to `openFile`.
    /// A takeoff in a file that has no records yet does not rotate (that file already starts the flight), and
    /// a record larger than `maxBytes` on its own still goes into an otherwise empty file.
    public func rotation(openFile: OpenFile?, nextRecordBytes: Int, takeoffDetected: Bool) -> Reason? {
        guard let openFile else { return .loggerStart }
        guard openFile.recordCount > 0 else { return nil }
        if takeoffDetected { return .takeoff }
        let (total, overflow) = openFile.byteCount.addingReportingOverflow(nextRecordBytes)
        return overflow || total > maxBytes ? .sizeLimit : nil
    }
}

#if canImport(Glibc)
import Glibc
#endif
import Logging
import Mission
import QuadService

/// The accepted mission on the board, beside the airspace in the state directory: `<state dir>/mission` (the
/// upload's payload as it came, `QMP1`) and `<state dir>/mission-progress` (`QMR1`: the boot id it was written in,
/// str8, then the executor's last record as a progress payload). Both in `ChecksummedFile`'s layout, replaced
/// atomically, read once at start; a damaged file is logged and ignored. The boot id tells a restart of the service
/// (the mission continues) from a power cycle of the board (it holds until `mission resume`).
struct MissionFile: Sendable {
    static let planMagic: [UInt8] = Array("QMP1".utf8)
    static let progressMagic: [UInt8] = Array("QMR1".utf8)
    let planPath: String
    let progressPath: String
    /// This boot's id (`FlightMemoryFile.bootId`), written with every record.
    let bootId: String

    init(directory: String, bootId: String) {
        let directory = directory.hasSuffix("/") ? String(directory.dropLast()) : directory
        planPath = directory + "/mission"
        progressPath = directory + "/mission-progress"
        self.bootId = bootId
    }

    /// As `AirspaceFile.open`: nil (logged: a plan is then held only until a restart) without a usable directory.
    static func open(_ location: FlightMemoryLocation, logger: Logger) -> MissionFile? {
        guard case .directory(let directory, let named) = location else {
            if case .off(let why) = location { logger.warning("mission not kept across restarts (\(why))") }
            return nil
        }
        let file = MissionFile(directory: directory, bootId: FlightMemoryFile.bootId())
        if let problem = StateDirectory.prepare(directory, named: named, keeping: file.planPath) {
            logger.warning("mission not kept across restarts: \(problem)")
            return nil
        }
        logger.info("mission kept in \(file.planPath)")
        return file
    }

    static func encodePlan(_ upload: MissionUpload) throws -> [UInt8] {
        ChecksummedFile.wrap(try upload.encoded(), magic: planMagic)
    }

    static func decodePlan(_ bytes: [UInt8]) throws -> MissionUpload {
        try MissionUpload(decoding: ChecksummedFile.unwrap(bytes, magic: planMagic))
    }

    static func encodeProgress(_ record: MissionProgressRecord, bootId: String) throws -> [UInt8] {
        let boot = Array(bootId.utf8.prefix(255))
        let progress = try MissionProgress(record: record, remainingDistanceM: 0, remainingTime: .zero).encoded()
        return ChecksummedFile.wrap([UInt8(boot.count)] + boot + progress, magic: progressMagic)
    }

    static func decodeProgress(_ bytes: [UInt8]) throws -> (record: MissionProgressRecord, bootId: String) {
        let payload = try ChecksummedFile.unwrap(bytes, magic: progressMagic)
        guard let count = payload.first.map(Int.init), payload.count > 1 + count else {
            throw ChecksummedFile.LoadError.damaged("no boot id")
        }
        let bootId = String(decoding: payload[1...count], as: UTF8.self)
        return (try MissionProgress(decoding: Array(payload[(1 + count)...])).record, bootId)
    }

    /// The plan and record the previous run kept; nil plan when none (or damaged: logged, never fatal).
    func load(logger: Logger) -> (upload: MissionUpload, record: MissionProgressRecord?, bootId: String)? {
        guard let planBytes = read(planPath, logger: logger) else { return nil }
        let upload: MissionUpload
        do { upload = try Self.decodePlan(planBytes) } catch {
            logger.error("mission file \(planPath) refused and ignored (\(error)): no mission until the next upload")
            return nil
        }
        guard let progressBytes = read(progressPath, logger: logger) else { return (upload, nil, "") }
        do {
            let (record, bootId) = try Self.decodeProgress(progressBytes)
            return (upload, record, bootId)
        } catch {
            logger.error("mission progress \(progressPath) refused and ignored (\(error)): the mission is not resumed")
            return (upload, nil, "")
        }
    }

    private func read(_ path: String, logger: Logger) -> [UInt8]? {
        do { return try FileBytes.read(path, limit: 1 << 20) } catch {
            if case .cannotOpen(_, let code) = error, code == ENOENT { return nil }
            logger.warning("mission file not read: \(error)")
            return nil
        }
    }

    /// Keeps the accepted plan. A failure is logged; the plan holds until a restart.
    func save(_ upload: MissionUpload, logger: Logger) {
        do { try FileBytes.replace(planPath, with: Self.encodePlan(upload)) } catch {
            logger.error("mission not kept (a restart would forget it): \(error)")
        }
    }

    /// Keeps the executor's record. A failure is logged; the mission flies on.
    func save(_ record: MissionProgressRecord, logger: Logger) {
        do { try FileBytes.replace(progressPath, with: Self.encodeProgress(record, bootId: bootId)) } catch {
            logger.warning("mission progress not kept (a restart would not resume at this item): \(error)")
        }
    }
}

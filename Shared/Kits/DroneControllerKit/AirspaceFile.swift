#if canImport(Glibc)
import Glibc
#endif
import Logging
import QuadProtocol
import QuadService

/// The accepted airspace on the board: `<state dir>/airspace`, in the flight memory's directory (the same
/// resolution: --state-dir, QUAD_STATE_DIR, STATE_DIRECTORY, else the XDG state directory; kept even with
/// --no-flight-memory, which is about resuming a flight, not about where the drone may fly). Replaced atomically on
/// every accepted upload, read once at start. Layout: `QAS1` (4 bytes), the CRC-32 (IEEE, u32 little-endian) of
/// what follows, then the upload's `AirspaceDefinition` payload as it came. A file whose CRC does not match, or
/// that does not decode, is logged and ignored (left in place for a look; the next upload replaces it). One
/// controller at a time keeps it: `open` locks `<state dir>/airspace.lock` for the process's life.
struct AirspaceFile: Sendable {
    static let magic: [UInt8] = Array("QAS1".utf8)
    let path: String

    init(directory: String) {
        path = (directory.hasSuffix("/") ? String(directory.dropLast()) : directory) + "/airspace"
    }

    typealias LoadError = ChecksummedFile.LoadError

    /// The file of `location`'s directory, made if it is the default one and locked for this process; nil (logged:
    /// an upload is then held only until a restart) when there is none, it cannot be made or another controller
    /// holds it.
    static func open(_ location: FlightMemoryLocation, logger: Logger) -> AirspaceFile? {
        guard case .directory(let directory, let named) = location else {
            if case .off(let why) = location { logger.warning("airspace not kept across restarts (\(why))") }
            return nil
        }
        let file = AirspaceFile(directory: directory)
        if let problem = StateDirectory.prepare(directory, named: named, keeping: file.path) {
            logger.warning("airspace not kept across restarts: \(problem)")
            return nil
        }
        logger.info("airspace kept in \(file.path)")
        return file
    }

    static func encode(_ payload: [UInt8]) -> [UInt8] { ChecksummedFile.wrap(payload, magic: magic) }

    static func decode(_ bytes: [UInt8]) throws(LoadError) -> AirspaceDefinition {
        let payload = try ChecksummedFile.unwrap(bytes, magic: magic)
        do { return try AirspaceDefinition(decoding: payload) } catch { throw .damaged("\(error)") }
    }

    /// The airspace the previous run accepted, or nil (none, unreadable or damaged: logged, never fatal).
    func load(logger: Logger) -> AirspaceDefinition? {
        let bytes: [UInt8]
        do { bytes = try FileBytes.read(path, limit: 4 << 20) } catch {
            if case .cannotOpen(_, let code) = error, code == ENOENT { return nil }
            logger.warning("airspace file not read: \(error)")
            return nil
        }
        do { return try Self.decode(bytes) } catch {
            logger.error("airspace file \(path) refused and ignored (\(error)): no airspace until the next upload")
            return nil
        }
    }

    /// Keeps `definition` as received. A failure is logged; the airspace holds until a restart.
    func save(_ definition: AirspaceDefinition, logger: Logger) {
        do { try FileBytes.replace(path, with: Self.encode(definition.encoded())) } catch {
            logger.error("airspace not kept (a restart would forget it): \(error)")
        }
    }
}

#if canImport(Glibc)
import Glibc
#endif
import FlightControl
import Logging
import QuadService

/// The controller's flight memory on the board: `<state dir>/flight-memory` (`FlightMemory`'s text), replaced
/// atomically on every change, read once at start. The boot id is the kernel's, so monotonic times from before a
/// reboot are never taken for this boot's.
struct FlightMemoryFile: Sendable {
    let path: String

    init(directory: String) {
        path = (directory.hasSuffix("/") ? String(directory.dropLast()) : directory) + "/flight-memory"
    }

    static func bootId() -> String {
        (try? FileBytes.firstLine("/proc/sys/kernel/random/boot_id")) ?? ""
    }

    /// The memory the previous run left, or nil (none, unreadable or damaged: logged, never fatal).
    func load(logger: Logger) -> FlightMemory? {
        let bytes: [UInt8]
        do { bytes = try FileBytes.read(path, limit: 64 * 1024) } catch {
            if case .cannotOpen(_, let code) = error, code == ENOENT { return nil }
            logger.warning("flight memory not read: \(error)")
            return nil
        }
        guard !bytes.isEmpty else { return nil }
        do { return try FlightMemory(text: String(decoding: bytes, as: UTF8.self)) } catch {
            logger.warning("flight memory \(path) is damaged (\(error)): not resumed")
            return nil
        }
    }

    /// Keeps `memory` (nil: nothing to resume, an empty file). A failure is logged; the flight goes on.
    func save(_ memory: FlightMemory?, logger: Logger) {
        do { try FileBytes.replace(path, with: Array((memory?.text ?? "").utf8)) } catch {
            logger.warning("flight memory not kept (a restart would not resume this flight): \(error)")
        }
    }
}

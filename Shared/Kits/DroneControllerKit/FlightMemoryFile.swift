#if canImport(Glibc)
import Glibc
#endif
import FlightControl
import Logging
import QuadService

/// The controller's flight memory on the board: `<state dir>/flight-memory` (`FlightMemory`'s text), replaced
/// atomically on every change, read once at start. The boot id is the kernel's, so monotonic times from before a
/// reboot are never taken for this boot's. One controller at a time keeps it: `open` takes a lock on
/// `<state dir>/flight-memory.lock` for the process's life.
struct FlightMemoryFile: Sendable {
    let path: String

    init(directory: String) {
        path = (directory.hasSuffix("/") ? String(directory.dropLast()) : directory) + "/flight-memory"
    }

    /// The memory file of `location`, its directory made if it is the default one and locked for this process;
    /// nil (logged, the controller runs on without memory) when it is off, cannot be made, or another
    /// controller holds it (two controllers of one drone on one machine, e.g. a test beside `make demo`).
    static func open(_ location: FlightMemoryLocation, logger: Logger) -> FlightMemoryFile? {
        switch location {
        case .off(let why):
            logger.warning("""
                no flight memory (\(why)): a restart of this controller will hover in place, forget the target \
                and refuse return (home unknown)
                """)
            return nil
        case .directory(let directory, let named):
            let file = FlightMemoryFile(directory: directory)
            if let problem = StateDirectory.prepare(directory, named: named, keeping: file.path) {
                logger.warning("no flight memory: \(problem)")
                return nil
            }
            logger.info("flight memory: \(file.path)")
            return file
        }
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

import QuadProtocol
import QuadService
#if canImport(Glibc)
import Glibc
#endif

/// What the logger reads from its surroundings beyond the environment (`ProcessEnvironment`): the host name for
/// file headers.
enum LoggerEnvironment {
    /// The free-form note in each file header: who wrote it, where.
    static func headerNote(drone: DroneID) -> String {
        var name = [CChar](repeating: 0, count: 256)
        let host = gethostname(&name, name.count - 1) == 0
            ? String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) : "unknown"
        return "telemetry-logger \(ServiceRuntime.version) host=\(host) presence-drone=\(drone.rawValue) "
            + "pid=\(getpid())"
    }
}

import Foundation

/// The one lookup of a system tool (mosquitto, nats-server, …): PATH plus the sbin directories, which a non-root
/// PATH often lacks and where Debian puts the brokers.
public enum SystemTool {
    public static func path(_ name: String) -> String? {
        let path = (ProcessInfo.processInfo.environment["PATH"] ?? "") + ":/usr/sbin:/sbin:/usr/local/sbin"
        for dir in path.split(separator: ":") {
            let candidate = "\(dir)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    public static func require(_ name: String) throws -> String {
        guard let path = path(name) else { throw BrokerNodeError.missing("\(name) (run `make deps`)") }
        return path
    }
}

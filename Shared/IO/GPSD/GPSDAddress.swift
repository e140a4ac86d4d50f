import NetworkEndpoint

/// Where gpsd listens: `HOST[:PORT]` (default port 2947). IPv6 literals go in brackets: `[::1]:2947`.
public struct GPSDAddress: Sendable, Equatable, CustomStringConvertible {
    public static let defaultPort: UInt16 = 2947
    public static let local = GPSDAddress(host: "127.0.0.1", port: defaultPort)

    public var host: String
    public var port: UInt16

    public enum ParseError: Error, Equatable, CustomStringConvertible {
        case empty
        case badPort(String)
        public var description: String {
            switch self {
            case .empty: "gpsd address is empty (expected HOST[:PORT])"
            case .badPort(let p): "gpsd port '\(p)' is not a number in 1…65535"
            }
        }
    }

    public init(host: String, port: UInt16 = defaultPort) {
        self.host = host
        self.port = port
    }

    public init(parsing text: String) throws(ParseError) {
        let split: (host: String, port: Int32?)
        do {
            split = try HostPort.split(text)
        } catch {
            switch error {
            case .empty: throw .empty
            case .badPort(let p): throw .badPort(p)
            }
        }
        guard let port = UInt16(exactly: split.port ?? Int32(Self.defaultPort)) else {
            throw .badPort(String(split.port ?? 0))
        }
        self.init(host: split.host, port: port)
    }

    public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
}

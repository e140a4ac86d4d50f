import NetworkEndpoint

/// `HOST[:PORT]` as given to `--broker` (default port 1883). IPv6 literals go in brackets: `[::1]:1883`.
public struct BrokerAddress: Sendable, Equatable, CustomStringConvertible {
    public var host: String
    public var port: Int32

    public enum ParseError: Error, Equatable, CustomStringConvertible {
        case empty
        case badPort(String)
        public var description: String {
            switch self {
            case .empty: "broker address is empty (expected HOST[:PORT])"
            case .badPort(let p): "broker port '\(p)' is not a number in 1…65535"
            }
        }
    }

    public init(host: String, port: Int32 = 1883) {
        self.host = host
        self.port = port
    }

    public init(parsing text: String) throws(ParseError) {
        let (host, port) = try Self.split(text)
        self.init(host: host, port: port ?? 1883)
    }

    /// `HOST[:PORT]` → host and the port if one was given.
    static func split(_ text: String) throws(ParseError) -> (host: String, port: Int32?) {
        do { return try HostPort.split(text) } catch {
            switch error {
            case .empty: throw .empty
            case .badPort(let p): throw .badPort(p)
            }
        }
    }

    public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }

    /// `HOST[:PORT],HOST[:PORT],…`: the nodes of one cluster, tried in this order. One address gives the errors of
    /// `init(parsing:)`; in a list, an empty item is refused by its position and a bad one is named.
    public static func list(parsing text: String) throws(ListParseError) -> [BrokerAddress] {
        guard text.contains(",") else {
            do { return [try BrokerAddress(parsing: text)] } catch { throw .single(error) }
        }
        let items = text.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        var addresses: [BrokerAddress] = []
        for (index, item) in items.enumerated() {
            guard !item.trimmingSpaces.isEmpty else { throw .emptyItem(position: index + 1, list: text) }
            do { addresses.append(try BrokerAddress(parsing: item)) } catch {
                throw .badItem(item.trimmingSpaces, error)
            }
        }
        return addresses
    }

    public enum ListParseError: Error, Equatable, CustomStringConvertible {
        case single(ParseError)
        case emptyItem(position: Int, list: String)
        case badItem(String, ParseError)
        public var description: String {
            switch self {
            case .single(let error): error.description
            case .emptyItem(let position, let list):
                "item \(position) of '\(list)' is empty (expected HOST[:PORT],HOST[:PORT],…)"
            case .badItem(let item, let error): "'\(item)': \(error)"
            }
        }
    }
}

extension String {
    var trimmingSpaces: String {
        var s = Substring(self)
        while let f = s.first, f.isWhitespace { s = s.dropFirst() }
        while let l = s.last, l.isWhitespace { s = s.dropLast() }
        return String(s)
    }
}

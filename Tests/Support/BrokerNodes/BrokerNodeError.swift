/// Why a node or a cluster is not up. The descriptions read as the integration tests' own environment errors did.
public enum BrokerNodeError: Error, CustomStringConvertible {
    case missing(String)
    case timeout(String)

    public var description: String {
        switch self {
        case .missing(let what): "missing dependency: \(what)"
        case .timeout(let what): "timed out: \(what)"
        }
    }
}

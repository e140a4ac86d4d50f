import Clocks
import QuadProtocol

/// What the status board knows about one service from its retained `quad/<id>/status/<service>` message.
/// Minimal on purpose: the JSON ServiceStatus type lives in the codec and maps onto this.
public struct ServicePresence: Sendable, Equatable {
    public var name: String
    public var online: Bool
    /// When the service (re)started, on its host's wall clock; nil when it did not say.
    public var startedAt: WallInstant?
    public var version: String?
    /// A location-broadcaster's (route, follow, claim, beacon): a ground tool that comes and goes.
    public var isBroadcaster: Bool

    public init(name: String, online: Bool, startedAt: WallInstant? = nil, version: String? = nil,
                isBroadcaster: Bool = false) {
        self.name = name
        self.online = online
        self.startedAt = startedAt
        self.version = version
        self.isBroadcaster = isBroadcaster
    }
}

extension ServicePresence {
    /// From a status message on `quad/<id>/status/…`; `name` is the topic's last level.
    public init(name: String, status: ServiceStatus) {
        self.init(name: name, online: status.state == .online,
                  startedAt: Int64(exactly: (status.startedAt * 1e6).rounded()).map(WallInstant.init(us:)),
                  version: status.version,
                  isBroadcaster: status.service.hasPrefix(Topics.broadcasterPresenceName(senderId: "")))
    }
}

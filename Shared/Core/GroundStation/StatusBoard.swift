import Clocks
import QuadProtocol

/// `location-broadcaster status`: the latest presence and telemetry of one drone, rendered as one plain-text screen
/// (at most 80 columns). Fed by the executable with what it receives and when; renders for a given `nowUs`.
/// Ages use the receive time on this machine, so clock skew between board and laptop does not distort them.
public struct StatusBoard: Sendable {
    public static let width = 80
    /// Services listed even before they announce themselves, so a missing one is visible.
    public static let defaultExpectedServices = [
        "drone-link", "drone-controller", "navigator", "telemetry-logger", "location-broadcaster",
    ]
    /// Presence names come from topics; cap how many we keep so a misbehaving client cannot grow the board past
    /// one 24-line screen. Expected services are always kept.
    public static let maxServices = 8

    struct Received<Value: Sendable>: Sendable {
        var value: Value
        var receivedAtUs: Int64
    }

    struct PresenceEntry: Sendable {
        var presence: ServicePresence
        /// When the online/offline state last changed, as seen here; nil for a service first seen offline: its
        /// retained status says nothing of when it stopped (the Last Will is written at connect).
        var changedAtUs: Int64?
    }

    public let drone: DroneID
    public let expectedServices: [String]
    /// Telemetry older than this is flagged STALE.
    public let staleAfter: Duration
    var services: [String: PresenceEntry] = [:]
    /// When this reader subscribed (same clock as `nowUs`): until one re-announce interval has passed, a service
    /// not heard from is "waiting", not "unknown" (its retained status may not be delivered, see ServiceStatus).
    public var watchingSince: MonotonicInstant?
    public static let defaultPresenceWait: Duration = .seconds(ServiceStatus.reannounceIntervalS) + .milliseconds(500)
    /// This board's "waiting" window (tests that must see it on a starved machine widen it).
    public var presenceWait = StatusBoard.defaultPresenceWait
    var controller: Received<ControllerState>?
    var droneState: Received<DroneState>?
    var link: Received<LinkStatus>?
    var navigation: Received<NavigationSolution>?
    /// The controller's way around keep-out zones (`airspace/route`, retained); nil or none: no route.
    var route: AirspaceRoutePlan?
    /// Board wall clock minus this laptop's (display only: it explains why the two hosts' logs may not line up).
    var clockOffset: Duration?

    public init(drone: DroneID, expectedServices: [String] = defaultExpectedServices,
                staleAfter: Duration = .seconds(3)) {
        self.drone = drone
        self.expectedServices = expectedServices
        self.staleAfter = staleAfter
    }

    /// Expected services not heard from yet.
    public var unseenExpectedServices: [String] { expectedServices.filter { services[$0] == nil } }

    public mutating func update(presence: ServicePresence, receivedAt: MonotonicInstant) {
        let receivedAtUs = receivedAt.us
        if let old = services[presence.name] {
            let changed = old.presence.online != presence.online ? receivedAtUs : old.changedAtUs
            services[presence.name] = PresenceEntry(presence: presence, changedAtUs: changed)
        } else if services.count < Self.maxServices || expectedServices.contains(presence.name) {
            services[presence.name] = PresenceEntry(presence: presence,
                                                    changedAtUs: presence.online ? receivedAtUs : nil)
        }
    }

    public mutating func update(controller state: ControllerState, receivedAt: MonotonicInstant) {
        let receivedAtUs = receivedAt.us
        controller = Received(value: state, receivedAtUs: receivedAtUs)
    }

    public mutating func update(drone state: DroneState, receivedAt: MonotonicInstant) {
        let receivedAtUs = receivedAt.us
        droneState = Received(value: state, receivedAtUs: receivedAtUs)
    }

    public mutating func update(link status: LinkStatus, receivedAt: MonotonicInstant) {
        let receivedAtUs = receivedAt.us
        link = Received(value: status, receivedAtUs: receivedAtUs)
    }

    public mutating func update(route plan: AirspaceRoutePlan?) {
        route = plan
    }

    public mutating func update(clockOffset offset: Duration?) {
        clockOffset = offset
    }

    public mutating func update(navigation solution: NavigationSolution, receivedAt: MonotonicInstant) {
        let receivedAtUs = receivedAt.us
        navigation = Received(value: solution, receivedAtUs: receivedAtUs)
    }

    /// Service names in display order: the expected ones first, then any others alphabetically. A broadcaster
    /// already offline when this reader looked is left out: its retained goodbye says only that a route, claim or
    /// beacon ran here once (the one-shot `status` listed its own sender id as `OFFLINE already`).
    var serviceNames: [String] {
        let extra = services.filter { name, entry in
            !expectedServices.contains(name)
                && !(entry.presence.isBroadcaster && !entry.presence.online && entry.changedAtUs == nil)
        }.keys.sorted()
        return expectedServices + extra
    }

    func isStale(_ receivedAtUs: Int64, nowUs: Int64, after: Duration? = nil) -> Bool {
        let age = nowUs &- receivedAtUs
        return age > (after ?? staleAfter).us || age < 0
    }

    /// The controller repeats its state every `ControllerState.repeatInterval` (5 s on the ground): judged against
    /// the telemetry's 3 s, a healthy landed controller read as STALE for 2 of every 5 s. Stale once a repeat is
    /// `staleAfter` overdue.
    func controllerStaleAfter(_ state: ControllerState) -> Duration {
        ControllerState.repeatInterval(activity: state.activity) + staleAfter
    }
}

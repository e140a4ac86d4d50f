import Navigation

/// A mission as the board keeps it: items in flying order with ids 0…n-1, and the speed legs are flown at until a
/// `changeSpeed` item says otherwise. Built by the parsers (.plan, or a route file through GroundStation) and the
/// payload decoder; `MissionValidation` decides whether it may be flown.
public struct MissionPlan: Sendable, Equatable {
    /// How many items the board keeps (the upload payload's and the persisted record's bound). A QGroundControl
    /// survey can make thousands; a hand-made multicopter mission of more than 100 steps is not what this is for.
    public static let maxItems = 100

    public var items: [MissionItem]
    /// The speed of the legs before any `changeSpeed`, m/s; nil: the controller's own cruise speed.
    public var cruiseSpeedMps: Double?
    /// Where the plan was made for (QGroundControl's planned home); informative, the fence is centred on the
    /// drone's real home.
    public var plannedHome: GeoPoint?

    public init(items: [MissionItem], cruiseSpeedMps: Double? = nil, plannedHome: GeoPoint? = nil) {
        self.items = items
        self.cruiseSpeedMps = cruiseSpeedMps
        self.plannedHome = plannedHome
    }

    /// A plan from item kinds, numbered 0…n-1 in order.
    public init(kinds: [MissionItem.Kind], cruiseSpeedMps: Double? = nil, plannedHome: GeoPoint? = nil) {
        self.init(items: kinds.enumerated().map { MissionItem(id: $0.offset, kind: $0.element) },
                  cruiseSpeedMps: cruiseSpeedMps, plannedHome: plannedHome)
    }

    public var hasTakeoff: Bool {
        items.contains { if case .takeoff = $0.kind { true } else { false } }
    }
}

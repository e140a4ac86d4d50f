/// The way drone-controller flies around keep-out zones (issue 38), retained on `quad/<id>/airspace/route`: what the
/// route is for (a target, the return home), its goal, the point it was planned from, its corners in order and the
/// one flown to now, its length against the straight line's, and the zone the straight leg met. Purpose `none` with
/// no corner is "no route": the controller overwrites the retained route with it when a route ends.
public struct AirspaceRoutePlan: WireMessage {
    public static let messageType = MessageType.airspaceRoutePlan

    /// A goal, start or corner, decimal degrees (the airspace's vertex).
    public typealias Point = AirspaceDefinition.Vertex

    /// What the route leads to.
    public enum Purpose: UInt8, Sendable, CaseIterable {
        /// No route: the controller flies none (straight, or not at all).
        case none = 0
        /// The accepted target, behind a zone.
        case target = 1
        /// Home, on the return.
        case returnHome = 2
    }

    /// At most this many corners (a u8 count; the planner's paths have a handful).
    public static let maxCorners = 64
    /// The zone's name, as the airspace names it (`AirspaceDefinition.Zone.name`, at most 64 bytes).
    public static let zoneNameBytes = 0...64

    public var sequence: UInt32
    public var timestampUs: Int64
    public var purpose: Purpose
    public var goal: Point
    /// Where the route was planned from (the drone's fix, else home).
    public var start: Point
    /// The corners between the start and the goal, in order.
    public var corners: [Point]
    /// The corner flown to now (0-based); `corners.count`: the last leg, to the goal.
    public var nextCorner: Int
    /// The planned path's length and the straight line's, start to goal, metres.
    public var lengthM: Double
    public var straightM: Double
    /// The zone the straight leg met ("" when unknown).
    public var zoneName: String

    public init(sequence: UInt32, timestampUs: Int64, purpose: Purpose, goal: Point, start: Point,
                corners: [Point], nextCorner: Int = 0, lengthM: Double, straightM: Double, zoneName: String) {
        self.sequence = sequence
        self.timestampUs = timestampUs
        self.purpose = purpose
        self.goal = goal
        self.start = start
        self.corners = corners
        self.nextCorner = nextCorner
        self.lengthM = lengthM
        self.straightM = straightM
        self.zoneName = Self.cut(zoneName)
    }

    /// No route (what the retained topic is overwritten with when a route ends).
    public static func none(sequence: UInt32 = 0, timestampUs: Int64 = 0) -> AirspaceRoutePlan {
        let origin = Point(latitudeDeg: 0, longitudeDeg: 0)
        return AirspaceRoutePlan(sequence: sequence, timestampUs: timestampUs, purpose: .none, goal: origin,
                                 start: origin, corners: [], lengthM: 0, straightM: 0, zoneName: "")
    }

    public var isNone: Bool { purpose == .none }

    /// Legs in all, and the one flown now (1-based): `leg 2 of 5`.
    public var legCount: Int { corners.count + 1 }
    public var leg: Int { nextCorner + 1 }

    /// `name` cut to `zoneNameBytes` by characters, never inside one (a cut UTF-8 sequence would decode as U+FFFD).
    public static func cut(_ name: String) -> String {
        var name = name
        while name.utf8.count > zoneNameBytes.upperBound { name.removeLast() }
        return name
    }
}

import MAVLink
import QuadProtocol

/// The held airspace as an autopilot's fence: its items, its ceiling, and what the fence cannot say.
///
/// A fence polygon has no holes. An inclusion zone's hole is a place not to be: it becomes an exclusion polygon
/// (exact). A keep-out zone's hole may be flown, which no fence item says: the keep-out ring goes up whole, so
/// the autopilot also keeps out of the hole (more cautious; said in `notes`). The margin stays the board's: the
/// autopilot's fence is the zones' own edges, the last line behind the margin the board keeps.
public struct FencePlan: Sendable, Equatable {
    public var items: [FenceItem]
    /// The airspace's ceiling, metres above home (ArduCopter FENCE_ALT_MAX, PX4 GF_MAX_VER_DIST); nil: none held.
    public var ceilingM: Double?
    /// The held airspace's `AirspaceDefinition.checksum`.
    public var checksum: UInt32
    public var zoneCount: Int
    /// What the fence says differently from the airspace, one line each.
    public var notes: [String]

    public init(_ definition: AirspaceDefinition) {
        checksum = definition.checksum
        zoneCount = definition.zones.count
        ceilingM = definition.isNone ? nil : definition.ceilingM
        items = []
        notes = []
        for zone in definition.zones {
            let inclusion = zone.kind == .inclusion
            switch zone.shape {
            case .circle(let centre, let radiusM):
                items.append(FenceItem(
                    command: inclusion ? MAVCmd.navFenceCircleInclusion : MAVCmd.navFenceCircleExclusion,
                    param1: Float(radiusM), latitudeE7: Self.e7(centre.latitudeDeg),
                    longitudeE7: Self.e7(centre.longitudeDeg)))
            case .polygon(let rings):
                guard let outer = rings.first else { continue }
                items += Self.polygon(outer, inclusion: inclusion)
                if inclusion {
                    for hole in rings.dropFirst() { items += Self.polygon(hole, inclusion: false) }
                } else if rings.count > 1 {
                    notes.append("keep-out zone '\(zone.name)': its \(rings.count - 1) hole(s) are kept out of too")
                }
            }
        }
    }

    private static func polygon(_ ring: [AirspaceDefinition.Vertex], inclusion: Bool) -> [FenceItem] {
        let command = inclusion ? MAVCmd.navFencePolygonVertexInclusion : MAVCmd.navFencePolygonVertexExclusion
        return ring.map {
            FenceItem(command: command, param1: Float(ring.count), latitudeE7: e7($0.latitudeDeg),
                      longitudeE7: e7($0.longitudeDeg))
        }
    }

    /// Degrees × 1e7, rounded (a validated coordinate always fits).
    static func e7(_ degrees: Double) -> Int32 { Int32(clamping: Int64((degrees * 1e7).rounded())) }

    /// Why `readBack` is not this fence (the first difference), or nil when it is.
    public func difference(from readBack: [FenceItem]) -> String? {
        guard readBack.count == items.count else {
            return "the autopilot holds \(readBack.count) fence items, the board's airspace makes \(items.count)"
        }
        for (index, (want, got)) in zip(items, readBack).enumerated() where !want.matches(got) {
            return "fence item \(index) differs: autopilot command \(got.command) param1 \(got.param1) at "
                + "\(got.latitudeE7),\(got.longitudeE7); board \(want.command) \(want.param1) at "
                + "\(want.latitudeE7),\(want.longitudeE7)"
        }
        return nil
    }
}

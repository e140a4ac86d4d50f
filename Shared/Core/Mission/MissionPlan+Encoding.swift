import Checksums
import Navigation
import QuadProtocol

/// The plan's canonical binary encoding (PROTOCOL.md, "Missions"), little-endian: one byte string per plan, so
/// its CRC-32 (IEEE) names the plan. Every slot an item does not use is zero; the decoder refuses anything else.
///
///     presence u8 (bit 0 cruise speed, bit 1 planned home), cruiseSpeedMps f32, plannedHome lat f64, lon f64,
///     item count u16 (1…100), then per item 32 bytes:
///       0 id u16, 2 kind u8, 3 flags u8 (bit 0: a point follows), 4 latitudeDeg f64, 12 longitudeDeg f64,
///       20 altitudeM f32, 24 timeMs u32 (hold or loiter), 28 value f32 (acceptance radius m, or speed m/s)
extension MissionPlan {
    public static let itemByteCount = 32
    /// Everything before the items.
    public static let canonicalHeadByteCount = 23

    /// Item kinds on the wire; values are part of the format.
    enum WireKind: UInt8, CaseIterable {
        case takeoff = 1, waypoint, loiterTime, changeSpeed, land, returnToLaunch
    }

    /// The bytes the checksum covers (and the upload carries).
    public var canonicalBytes: [UInt8] {
        var writer = WireWriter(capacity: Self.canonicalHeadByteCount + items.count * Self.itemByteCount)
        write(into: &writer)
        return writer.bytes
    }

    /// CRC-32 (IEEE 802.3, the zlib one) of `canonicalBytes`: the plan's name in commands, progress and the
    /// persisted record.
    public var checksum: UInt32 { CRC32.ieee.checksum(canonicalBytes) }

    func write(into writer: inout WireWriter) {
        writer.presence([cruiseSpeedMps != nil, plannedHome != nil])
        writer.f32(cruiseSpeedMps.map(Float.init))
        writer.f64(plannedHome?.latitudeDeg)
        writer.f64(plannedHome?.longitudeDeg)
        writer.u16(UInt16(clamping: items.count))
        for item in items { item.write(into: &writer) }
    }

    /// Reads a plan and checks that its bytes were canonical; the caller runs the plan's rules.
    static func read(from reader: inout MissionWireReader) throws(MissionWireError) -> MissionPlan {
        let start = reader.offset
        let presence = try reader.u8()
        guard presence & ~0b11 == 0 else { throw .unknownEnumValue(field: "plan presence", got: presence) }
        let cruise = try reader.f32("cruiseSpeedMps")
        let lat = try reader.f64("plannedHome.latitudeDeg"), lon = try reader.f64("plannedHome.longitudeDeg")
        let count = Int(try reader.u16())
        guard count > 0 else { throw .plan(.empty) }
        guard count <= maxItems else { throw .plan(.tooManyItems(count: count, max: maxItems)) }
        var items: [MissionItem] = []
        for index in 0..<count { items.append(try MissionItem.read(from: &reader, index: index)) }
        let plan = MissionPlan(items: items, cruiseSpeedMps: presence & 1 != 0 ? Double(cruise) : nil,
                               plannedHome: presence & 2 != 0 ? GeoPoint(latitudeDeg: lat, longitudeDeg: lon) : nil)
        var canonical = MissionWireReader(plan.canonicalBytes, offset: 0, newerMinor: false)
        var received = reader
        received.rewind(to: start)
        for index in -1..<count {
            let size = index < 0 ? canonicalHeadByteCount : itemByteCount
            guard try canonical.raw(size) == received.raw(size) else { throw .notCanonical(item: max(index, 0)) }
        }
        return plan
    }
}

extension MissionItem {
    func write(into writer: inout WireWriter) {
        let wire: MissionPlan.WireKind
        var timeMs: UInt32 = 0
        var value: Float = 0
        switch kind {
        case .takeoff: wire = .takeoff
        case let .waypoint(_, _, holdTime, radiusM):
            (wire, timeMs, value) = (.waypoint, Self.milliseconds(holdTime), Float(radiusM))
        case let .loiterTime(_, _, time): (wire, timeMs) = (.loiterTime, Self.milliseconds(time))
        case let .changeSpeed(speedMps): (wire, value) = (.changeSpeed, Float(speedMps))
        case .land: wire = .land
        case .returnToLaunch: wire = .returnToLaunch
        }
        writer.u16(UInt16(clamping: id))
        writer.enumeration(wire)
        writer.u8(point == nil ? 0 : 1)
        writer.f64(point?.latitudeDeg)
        writer.f64(point?.longitudeDeg)
        writer.f32(altitudeM.map(Float.init))
        writer.u32(timeMs)
        writer.f32(value)
    }

    static func milliseconds(_ duration: Duration) -> UInt32 { UInt32(clamping: max(0, duration.us / 1_000)) }

    static func read(from reader: inout MissionWireReader, index: Int) throws(MissionWireError) -> MissionItem {
        let at = "items[\(index)]"
        let id = Int(try reader.u16())
        let wire = try reader.enumeration(MissionPlan.WireKind.self, at + ".kind")
        let flags = try reader.u8()
        let lat = try reader.f64(at + ".latitudeDeg"), lon = try reader.f64(at + ".longitudeDeg")
        let altitudeM = Double(try reader.f32(at + ".altitudeM"))
        let time = Duration.milliseconds(Int64(try reader.u32()))
        let value = Double(try reader.f32(at + ".value"))
        let point = GeoPoint(latitudeDeg: lat, longitudeDeg: lon)
        let kind: Kind = switch wire {
        case .takeoff: .takeoff(altitudeM: altitudeM)
        case .waypoint: .waypoint(point, altitudeM: altitudeM, holdTime: time, acceptanceRadiusM: value)
        case .loiterTime: .loiterTime(point, altitudeM: altitudeM, time: time)
        case .changeSpeed: .changeSpeed(speedMps: value)
        case .land: .land(flags & 1 != 0 ? point : nil)
        case .returnToLaunch: .returnToLaunch
        }
        // Flags that disagree with the kind re-encode differently: the canonical check names the item.
        return MissionItem(id: id, kind: kind)
    }
}

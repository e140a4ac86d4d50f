import Airspace
import Navigation

extension MissionPlan {
    /// The payload's limits: what any board accepts whatever its fence (the decoder runs these).
    public static let structuralMaxSpeedMps = 50.0
    public static let structuralMaxStayTime = Duration.seconds(86_400)
    /// Below the ground is a sender's bug; above this no multicopter mission goes.
    public static let structuralAltitudeRangeM: ClosedRange<Double> = 0...10_000

    /// Refuses the whole plan for the first rule an item breaks, in item order: the plan's shape, then each item's
    /// numbers, then this drone's ceiling, fence circle and airspace.
    public func validate(limits: MissionLimits) throws(MissionPlanError) {
        try validateStructure(maxSpeedMps: limits.maxSpeedMps, maxStayTime: limits.maxStayTime)
        for (index, item) in items.enumerated() {
            if let altitudeM = item.altitudeM, altitudeM > limits.ceilingM {
                throw .aboveCeiling(item: index, altitudeM: altitudeM, ceilingM: limits.ceilingM)
            }
            guard let point = item.point else { continue }
            let distanceM = Geodesy.inverse(from: limits.home, to: point).distanceM
            guard distanceM <= limits.fenceRadiusM else {
                throw .outsideFence(item: index, distanceM: distanceM, radiusM: limits.fenceRadiusM)
            }
            if let airspace = limits.airspace, let violation = airspace.violation(point, altitudeM: item.altitudeM) {
                throw .airspace(item: index, rule: violation.kind.rawValue, zoneName: violation.zoneName)
            }
        }
    }

    /// What holds on every board: not empty, at most `maxItems`, ids 0…n-1, finite numbers in their ranges,
    /// nothing after a land or return. The payload decoder runs this with the structural bounds.
    public func validateStructure(maxSpeedMps: Double = structuralMaxSpeedMps,
                                  maxStayTime: Duration = structuralMaxStayTime) throws(MissionPlanError) {
        guard !items.isEmpty else { throw .empty }
        guard items.count <= Self.maxItems else { throw .tooManyItems(count: items.count, max: Self.maxItems) }
        let speeds = "(0, \(maxSpeedMps)]"
        if let cruiseSpeedMps, !(cruiseSpeedMps.isFinite && cruiseSpeedMps > 0 && cruiseSpeedMps <= maxSpeedMps) {
            throw .planField(field: "cruise speed", value: cruiseSpeedMps, expected: speeds + " m/s")
        }
        if let plannedHome, !plannedHome.isValid {
            let bad = plannedHome.latitudeDeg.isFinite && abs(plannedHome.latitudeDeg) <= 90
                ? plannedHome.longitudeDeg : plannedHome.latitudeDeg
            throw .planField(field: "planned home", value: bad, expected: "-90...90, -180...180")
        }
        var seen: Set<Int> = []
        for (index, item) in items.enumerated() {
            guard seen.insert(item.id).inserted else { throw .duplicateId(item: index, id: item.id) }
            guard item.id == index else { throw .wrongId(item: index, id: item.id) }
            if index > 0, items[index - 1].endsMission { throw .itemAfterEnd(item: index) }
            try item.validateNumbers(index: index, maxSpeedMps: maxSpeedMps, maxStayTime: maxStayTime)
        }
    }
}

extension MissionItem {
    func validateNumbers(index: Int, maxSpeedMps: Double, maxStayTime: Duration) throws(MissionPlanError) {
        if let point {
            guard point.latitudeDeg.isFinite else { throw .notFinite(item: index, field: "latitude") }
            guard point.longitudeDeg.isFinite else { throw .notFinite(item: index, field: "longitude") }
            guard abs(point.latitudeDeg) <= 90 else {
                throw .latitudeOutOfRange(item: index, value: point.latitudeDeg)
            }
            guard abs(point.longitudeDeg) <= 180 else {
                throw .longitudeOutOfRange(item: index, value: point.longitudeDeg)
            }
        }
        if let altitudeM {
            guard altitudeM.isFinite else { throw .notFinite(item: index, field: "altitude") }
            let range = MissionPlan.structuralAltitudeRangeM
            guard range.contains(altitudeM) else {
                throw .outOfRange(item: index, field: "altitude", value: altitudeM,
                                  expected: "\(Int(range.lowerBound))...\(Int(range.upperBound)) m")
            }
        }
        guard stayTime >= .zero, stayTime <= maxStayTime else {
            throw .outOfRange(item: index, field: "hold time", value: stayTime.inSeconds,
                              expected: "0...\(Int(maxStayTime.inSeconds)) s")
        }
        switch kind {
        case let .waypoint(_, _, _, radiusM):
            guard radiusM.isFinite else { throw .notFinite(item: index, field: "acceptance radius") }
            guard radiusM > 0, radiusM <= 1_000 else {
                throw .outOfRange(item: index, field: "acceptance radius", value: radiusM, expected: "(0, 1000] m")
            }
        case let .changeSpeed(speedMps):
            guard speedMps.isFinite else { throw .notFinite(item: index, field: "speed") }
            guard speedMps > 0, speedMps <= maxSpeedMps else {
                throw .outOfRange(item: index, field: "speed", value: speedMps, expected: "(0, \(maxSpeedMps)] m/s")
            }
        case .takeoff, .loiterTime, .land, .returnToLaunch: break
        }
    }
}

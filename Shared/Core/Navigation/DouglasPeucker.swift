/// Douglas–Peucker simplification of a recorded track, in a local tangent plane around its first point: keeps the
/// first and the last point, and every point needed so that each dropped point lies within `toleranceM` of the
/// segment between the kept points on either side of it. A track flown back over itself (an out-and-back) keeps its
/// turning point: distances are to segments, not to infinite lines. Iterative (no recursion depth to exhaust on a
/// long track), pure.
public enum DouglasPeucker {
    /// The indices of the points kept, ascending. Non-finite points are never kept (nor measured).
    public static func keptIndices(_ points: [GeoPoint], toleranceM: Double) -> [Int] {
        let finite = points.indices.filter { points[$0].latitudeDeg.isFinite && points[$0].longitudeDeg.isFinite }
        guard let first = finite.first, finite.count > 2 else { return finite }
        let plane = LocalTangentPlane(origin: points[first])
        let metres = finite.map { plane.metres(points[$0]) }
        let tolerance = toleranceM.isNaN ? 0 : max(0, toleranceM)
        var keep = [Bool](repeating: false, count: metres.count)
        keep[0] = true
        keep[metres.count - 1] = true
        var spans = [(0, metres.count - 1)]
        while let (start, end) = spans.popLast() {
            guard end - start > 1 else { continue }
            var farthest = start, farthestM = -1.0
            for index in (start + 1)..<end {
                let distanceM = segmentDistanceM(metres[index], from: metres[start], to: metres[end])
                if distanceM > farthestM { (farthest, farthestM) = (index, distanceM) }
            }
            guard farthestM > tolerance else { continue }
            keep[farthest] = true
            spans.append((start, farthest))
            spans.append((farthest, end))
        }
        return keep.indices.filter { keep[$0] }.map { finite[$0] }
    }

    /// Distance in the plane from `point` to the segment `from`–`to`.
    public static func segmentDistanceM(_ point: LocalTangentPlane.Metres, from: LocalTangentPlane.Metres,
                                        to: LocalTangentPlane.Metres) -> Double {
        let dEast = to.eastM - from.eastM, dNorth = to.northM - from.northM
        let lengthSquared = dEast * dEast + dNorth * dNorth
        guard lengthSquared > 0 else { return point.distanceM(to: from) }
        let along = ((point.eastM - from.eastM) * dEast + (point.northM - from.northM) * dNorth) / lengthSquared
        let clamped = min(1, max(0, along))
        return point.distanceM(to: .init(eastM: from.eastM + clamped * dEast, northM: from.northM + clamped * dNorth))
    }
}

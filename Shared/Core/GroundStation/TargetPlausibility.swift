import Navigation

/// Catches a target typed wrong before it is sent: `target 13.3777 52.5163` (latitude and longitude swapped) is
/// 5 555 km from a drone at Pariser Platz. Far means beyond `limitM` from a reference: the drone's position when
/// known (limit: the geofence radius, 200 m by default), else the controller's current target (10 km).
public enum TargetPlausibility {
    public static let defaultLimitM = 200.0
    public static let unknownPositionLimitM = 10_000.0

    public struct Reference: Sendable, Equatable {
        public var point: GeoPoint
        /// `the drone`, `the controller's current target`.
        public var name: String
        public var limitM: Double
        /// Said after the limit, e.g. `drone position unknown`.
        public var note: String?
        public init(point: GeoPoint, name: String, limitM: Double, note: String? = nil) {
            self.point = point
            self.name = name
            self.limitM = limitM
            self.note = note
        }
    }

    public enum Verdict: Sendable, Equatable {
        case unchecked
        case near(distanceM: Double)
        /// `swapped`: the target with latitude and longitude exchanged, when that lies within the limit.
        case far(distanceM: Double, swapped: GeoPoint?, swappedDistanceM: Double?)
    }

    public static func check(_ target: GeoPoint, against reference: Reference?) -> Verdict {
        guard let reference else { return .unchecked }
        let distanceM = Geodesy.inverse(from: reference.point, to: target).distanceM
        guard distanceM > reference.limitM else { return .near(distanceM: distanceM) }
        guard abs(
            target.longitudeDeg) <= 90 else { return .far(distanceM: distanceM, swapped: nil, swappedDistanceM: nil) }
        let swapped = GeoPoint(latitudeDeg: target.longitudeDeg, longitudeDeg: target.latitudeDeg)
        let swappedM = Geodesy.inverse(from: reference.point, to: swapped).distanceM
        return swappedM <= reference.limitM
            ? .far(distanceM: distanceM, swapped: swapped, swappedDistanceM: swappedM)
            : .far(distanceM: distanceM, swapped: nil, swappedDistanceM: nil)
    }

    /// `13.377700, 52.516300 is 5553 km from the drone (limit 200 m); did you swap latitude and longitude?
    /// 'target 52.5163 13.3777' is 0.0 m from it`, or nil when not far.
    public static func warning(_ target: GeoPoint, _ verdict: Verdict, reference: Reference) -> String? {
        guard case .far(let distanceM, let swapped, let swappedM) = verdict else { return nil }
        var text = DegreesMinutesSeconds.shortDecimal(target.latitudeDeg) + ", "
            + DegreesMinutesSeconds.shortDecimal(target.longitudeDeg) + " is " + distance(distanceM) + " from "
            + reference.name + " (limit " + distance(reference.limitM) + (reference.note.map { "; " + $0 } ?? "") + ")"
        if let swapped, let swappedM {
            text += "; did you swap latitude and longitude? 'target "
                + DegreesMinutesSeconds.shortDecimal(swapped.latitudeDeg) + " "
                + DegreesMinutesSeconds.shortDecimal(swapped.longitudeDeg) + "' is " + distance(swappedM) + " from it"
        }
        return text
    }

    /// `31.2 m`, `12.4 km`, `5553 km`.
    public static func distance(_ metres: Double) -> String {
        if metres < 1000 { return TextFormat.fixed(metres, digits: 1) + " m" }
        if metres < 100_000 { return TextFormat.fixed(metres / 1000, digits: 1) + " km" }
        return TextFormat.fixed(metres / 1000, digits: 0) + " km"
    }
}

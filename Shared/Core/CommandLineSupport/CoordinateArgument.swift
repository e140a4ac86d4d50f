import ArgumentParser
import Navigation

/// A `LAT,LON` option value in decimal degrees (`-33.86,151.2`), parsed by `GeoPoint.parse`, printed in `--help`
/// as the user types it. Declare it with `parsing: .signedNumber` so southern and western values pass.
public struct CoordinateArgument: ExpressibleByArgument, CustomStringConvertible, Sendable, Equatable {
    public var point: GeoPoint

    public init(_ point: GeoPoint) { self.point = point }

    public init?(argument: String) {
        guard let point = try? GeoPoint.parse(argument) else { return nil }
        self.point = point
    }

    // Double's description is the shortest text that reads back the same: 52.5163, not 52.516300000000001.
    public var description: String { "\(point.latitudeDeg),\(point.longitudeDeg)" }
}

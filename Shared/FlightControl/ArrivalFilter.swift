/// Judges arrival on several position fixes, not one: a single fix with 0.2 m of GPS noise can fall inside a
/// 1 m radius while the drone is 1.3 m away. The navigator sends a solution on every input (heading updates
/// repeat the same fix), so only solutions from distinct drone positions count as separate samples.
public struct ArrivalFilter: Sendable, Equatable {
    /// Samples older than this are forgotten.
    public var windowUs: Int64
    /// Fewer distinct fixes than this inside the window: no verdict yet.
    public var minimumFixes: Int

    private var samples: [Sample] = []

    struct Sample: Sendable, Equatable {
        var atUs: Int64
        var latitudeDeg: Double
        var longitudeDeg: Double
        var distanceM: Double
    }

    public init(windowUs: Int64, minimumFixes: Int) {
        self.windowUs = windowUs
        self.minimumFixes = max(1, minimumFixes)
    }

    public mutating func reset() { samples.removeAll() }

    /// Adds the distance computed from the drone at (latitudeDeg, longitudeDeg); a repeated position replaces
    /// its earlier sample's distance instead of counting twice.
    public mutating func observe(distanceM: Double, latitudeDeg: Double, longitudeDeg: Double, atUs: Int64) {
        guard distanceM.isFinite else { return }
        samples.removeAll { atUs &- $0.atUs > windowUs }
        if let last = samples.last, last.latitudeDeg == latitudeDeg, last.longitudeDeg == longitudeDeg {
            samples[samples.count - 1].distanceM = distanceM
            samples[samples.count - 1].atUs = atUs
        } else {
            samples.append(Sample(atUs: atUs, latitudeDeg: latitudeDeg, longitudeDeg: longitudeDeg,
                                  distanceM: distanceM))
        }
    }

    /// Mean distance over the window's fixes, or nil while there are too few.
    public var filteredDistanceM: Double? {
        guard samples.count >= minimumFixes else { return nil }
        return samples.reduce(0) { $0 + $1.distanceM } / Double(samples.count)
    }
}

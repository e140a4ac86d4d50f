import Clocks
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where the goal is from the drone, averaged over several position fixes, not one: a single fix with 0.2 m of GPS
/// noise can fall inside a 1 m radius while the drone is 1.3 m away. It averages the error VECTOR (north, east),
/// not the distance: the mean of noisy distances is biased (with drone-sim's default 1.5 m noise it stays near
/// 1.9 m on the very spot, so nothing ever arrived). The navigator sends a solution on every input (heading updates
/// repeat the same fix), so only solutions from distinct drone positions count as separate samples.
public struct ArrivalFilter: Sendable, Equatable {
    /// Samples older than this are forgotten.
    public var window: Duration
    /// Fewer distinct fixes than this inside the window: no verdict yet.
    public var minimumFixes: Int

    private var samples: [Sample] = []

    struct Sample: Sendable, Equatable {
        var at: MonotonicInstant
        var latitudeDeg: Double
        var longitudeDeg: Double
        var northM: Double
        var eastM: Double
    }

    public init(window: Duration, minimumFixes: Int) {
        self.window = window
        self.minimumFixes = max(1, minimumFixes)
    }

    public mutating func reset() { samples.removeAll() }

    /// Adds the goal as seen from the drone at (latitudeDeg, longitudeDeg): `distanceM` away on `bearingDeg`.
    /// `newFix`: the caller knows this is a position fix of its own (a fix, or the navigator's solution for one), and
    /// it counts even at the very same coordinates: a vehicle holding still repeats its fix to the last digit
    /// (ArduCopter SITL, 1e-7°), and counting those once left the filter without a verdict for as long as it held.
    /// Otherwise a repeated position is the same fix again (the navigator's solutions for heading updates) and
    /// replaces its earlier sample instead of counting twice.
    public mutating func observe(distanceM: Double, bearingDeg: Double = 0, latitudeDeg: Double, longitudeDeg: Double,
                                 newFix: Bool = false, at time: MonotonicInstant) {
        guard distanceM.isFinite, bearingDeg.isFinite else { return }
        samples.removeAll { time - $0.at > window }
        let bearingRad = bearingDeg * .pi / 180
        let sample = Sample(at: time, latitudeDeg: latitudeDeg, longitudeDeg: longitudeDeg,
                            northM: distanceM * cos(bearingRad), eastM: distanceM * sin(bearingRad))
        if !newFix, let last = samples.last, last.latitudeDeg == latitudeDeg, last.longitudeDeg == longitudeDeg {
            samples[samples.count - 1] = sample
        } else {
            samples.append(sample)
        }
    }

    /// The mean error vector (metres north and east from the drone to the goal), or nil while there are too few fixes.
    public var meanErrorM: (northM: Double, eastM: Double)? {
        guard samples.count >= minimumFixes else { return nil }
        let count = Double(samples.count)
        return (samples.reduce(0) { $0 + $1.northM } / count, samples.reduce(0) { $0 + $1.eastM } / count)
    }

    /// How old the mean error is: the mean age of its fixes (about half the window while they come evenly), or nil
    /// while there are too few fixes. A drone moving at v m/s is v × this further on than `meanErrorM` says.
    public func meanAge(now: MonotonicInstant) -> Duration? {
        guard samples.count >= minimumFixes else { return nil }
        let totalUs = samples.reduce(Int64(0)) { $0 + (now - $1.at).us }
        return .microseconds(totalUs / Int64(samples.count))
    }

    /// The distance of the mean error vector, or nil while there are too few fixes.
    public var filteredDistanceM: Double? {
        meanErrorM.map { ($0.northM * $0.northM + $0.eastM * $0.eastM).squareRoot() }
    }
}

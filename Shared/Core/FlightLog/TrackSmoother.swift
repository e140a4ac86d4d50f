import Clocks
import Navigation

/// The positions a flight review shows: the GPS fixes through a constant-velocity Kalman filter and a
/// Rauch–Tung–Striebel smoother (forward filter, then a backward pass, so the track neither lags nor overshoots at a
/// turn), in a local tangent plane around the first fix. Raw fixes zigzag: drone-sim's default noise is white,
/// σ 1.5 m per axis at 15 Hz, and summing its steps made an 88.7 m out-and-back 4.5 km.
///
/// Model, per axis (east, north), state position and velocity: white-noise acceleration of spectral density
/// `accelerationNoiseM2PerS3` (0.1 m²/s³: a quadcopter at 1–5 m/s changes speed smoothly), measurement noise
/// σ `measurementSigmaM` (1.5 m, drone-sim's default; a consumer GPS is 1–3 m), initial speed uncertainty σ
/// `initialSpeedSigmaMps` (5 m/s, the simulator's top speed). A fix whose innovation lies beyond `gateSigmas` (5)
/// standard deviations is skipped as a glitch; `resetAfterRejected` (5) skipped in a row, or a gap of more than
/// `maxGapS` (10 s) between fixes, start the filter afresh at the next fix (the drone really is elsewhere).
/// Every output is index-aligned with the input: a skipped or non-finite fix gets the smoothed estimate at its
/// time. Pure: no clock, no I/O.
public enum TrackSmoother {
    public struct Parameters: Sendable, Equatable {
        public var measurementSigmaM = 1.5
        public var accelerationNoiseM2PerS3 = 0.1
        public var initialSpeedSigmaMps = 5.0
        public var gateSigmas = 5.0
        public var resetAfterRejected = 5
        public var maxGapS = 10.0

        public init() {}
    }

    public struct Fix: Sendable, Equatable {
        public var at: WallInstant
        public var position: GeoPoint

        public init(at: WallInstant, position: GeoPoint) {
            self.at = at
            self.position = position
        }
    }

    public static func smooth(_ fixes: [Fix], parameters: Parameters = Parameters()) -> [GeoPoint] {
        func isFinite(_ p: GeoPoint) -> Bool { p.latitudeDeg.isFinite && p.longitudeDeg.isFinite }
        guard let first = fixes.first(where: { isFinite($0.position) }) else { return fixes.map(\.position) }
        let plane = LocalTangentPlane(origin: first.position)
        // Fixes of several log files may come in any order: filter in time order, answer in the input's.
        let order = fixes.indices.sorted { (fixes[$0].at, $0) < (fixes[$1].at, $1) }
        var steps: [Step] = []
        steps.reserveCapacity(fixes.count)
        var filter = Filter(parameters: parameters)
        var previousUs: Int64?
        for index in order {
            let fix = fixes[index]
            let measured = isFinite(fix.position) ? plane.metres(fix.position) : nil
            let dtS = previousUs.map { max(0, Double(fix.at.us &- $0) / 1_000_000) }
            if filter.isStarted || measured != nil { previousUs = fix.at.us }
            steps.append(filter.step(dtS: dtS, measured: measured, index: index))
        }
        let smoothed = Filter.backward(steps)
        var output = fixes.map(\.position)
        // A non-finite fix takes the estimate before it (or the first one, before any).
        var lastKnown = smoothed.lazy.compactMap { $0 }.first
        for (step, metres) in zip(steps, smoothed) {
            lastKnown = metres ?? lastKnown
            if let lastKnown { output[step.index] = plane.point(lastKnown) }
        }
        return output
    }

    /// Position and velocity on both axes, sharing one covariance (the same model and noise on each axis).
    struct State: Equatable {
        var eastM = 0.0, northM = 0.0, eastMps = 0.0, northMps = 0.0
        /// Covariance of (position, velocity) on one axis.
        var pp = 0.0, pv = 0.0, vv = 0.0
    }

    /// One fix's forward result: the prediction before it and the estimate after it, for the backward pass.
    struct Step: Equatable {
        var index: Int
        var dtS: Double
        /// A new segment: no dynamics link to the step before (first fix, reset, long gap).
        var startsSegment: Bool
        var predicted: State?
        var filtered: State?
    }

    struct Filter {
        let parameters: Parameters
        private(set) var state: State?
        private var rejectedInARow = 0

        init(parameters: Parameters) { self.parameters = parameters }

        var isStarted: Bool { state != nil }

        mutating func step(dtS: Double?, measured: LocalTangentPlane.Metres?, index: Int) -> Step {
            let measurementVariance = parameters.measurementSigmaM * parameters.measurementSigmaM
            guard var current = state, let dtS, dtS <= parameters.maxGapS else {
                guard let measured else {
                    state = nil
                    return Step(index: index, dtS: 0, startsSegment: true)
                }
                state = start(at: measured)
                rejectedInARow = 0
                return Step(index: index, dtS: 0, startsSegment: true, predicted: state, filtered: state)
            }
            current = predict(current, dtS: dtS)
            let predicted = current
            guard let measured else {
                state = current
                return Step(index: index, dtS: dtS, startsSegment: false, predicted: predicted, filtered: current)
            }
            let innovationEastM = measured.eastM - current.eastM
            let innovationNorthM = measured.northM - current.northM
            let innovationVariance = current.pp + measurementVariance
            let squaredDistance = (innovationEastM * innovationEastM + innovationNorthM * innovationNorthM)
                / innovationVariance
            if squaredDistance > parameters.gateSigmas * parameters.gateSigmas {
                rejectedInARow += 1
                if rejectedInARow >= parameters.resetAfterRejected {
                    state = start(at: measured)
                    rejectedInARow = 0
                    return Step(index: index, dtS: 0, startsSegment: true, predicted: state, filtered: state)
                }
                state = current
                return Step(index: index, dtS: dtS, startsSegment: false, predicted: predicted, filtered: current)
            }
            rejectedInARow = 0
            let gainPosition = current.pp / innovationVariance
            let gainVelocity = current.pv / innovationVariance
            current.eastM += gainPosition * innovationEastM
            current.northM += gainPosition * innovationNorthM
            current.eastMps += gainVelocity * innovationEastM
            current.northMps += gainVelocity * innovationNorthM
            let (pp, pv, vv) = (current.pp, current.pv, current.vv)
            current.pp = pp - gainPosition * pp
            current.pv = pv - gainPosition * pv
            current.vv = vv - gainVelocity * pv
            state = current
            return Step(index: index, dtS: dtS, startsSegment: false, predicted: predicted, filtered: current)
        }

        private func start(at measured: LocalTangentPlane.Metres) -> State {
            State(eastM: measured.eastM, northM: measured.northM,
                  pp: parameters.measurementSigmaM * parameters.measurementSigmaM,
                  vv: parameters.initialSpeedSigmaMps * parameters.initialSpeedSigmaMps)
        }

        private func predict(_ state: State, dtS: Double) -> State {
            var next = state
            next.eastM += state.eastMps * dtS
            next.northM += state.northMps * dtS
            let q = parameters.accelerationNoiseM2PerS3
            next.pp = state.pp + 2 * dtS * state.pv + dtS * dtS * state.vv + q * dtS * dtS * dtS / 3
            next.pv = state.pv + dtS * state.vv + q * dtS * dtS / 2
            next.vv = state.vv + q * dtS
            return next
        }

        /// The Rauch–Tung–Striebel pass, segment by segment: each estimate corrected by what came after it.
        static func backward(_ steps: [Step]) -> [LocalTangentPlane.Metres?] {
            var result = steps.map { $0.filtered.map { LocalTangentPlane.Metres(eastM: $0.eastM, northM: $0.northM) } }
            guard steps.count > 1 else { return result }
            var later: State? = steps.last?.filtered
            for k in stride(from: steps.count - 2, through: 0, by: -1) {
                guard let filtered = steps[k].filtered else {
                    later = nil
                    continue
                }
                let next = steps[k + 1]
                guard !next.startsSegment, let smoothedNext = later, let predicted = next.predicted else {
                    later = filtered
                    continue
                }
                // Gain C = P F' (P⁻)⁻¹ with F = [1 dt; 0 1].
                let dt = next.dtS
                let (a, b, c) = (filtered.pp + dt * filtered.pv, filtered.pv, filtered.pv + dt * filtered.vv)
                let d = filtered.vv
                let determinant = predicted.pp * predicted.vv - predicted.pv * predicted.pv
                guard determinant > 0, determinant.isFinite else {
                    later = filtered
                    continue
                }
                let (ip, iv, ivv) = (predicted.vv / determinant, -predicted.pv / determinant,
                                     predicted.pp / determinant)
                let (c00, c01) = (a * ip + b * iv, a * iv + b * ivv)
                let (c10, c11) = (c * ip + d * iv, c * iv + d * ivv)
                var smoothed = filtered
                let eastPosition = smoothedNext.eastM - predicted.eastM
                let eastVelocity = smoothedNext.eastMps - predicted.eastMps
                let northPosition = smoothedNext.northM - predicted.northM
                let northVelocity = smoothedNext.northMps - predicted.northMps
                smoothed.eastM += c00 * eastPosition + c01 * eastVelocity
                smoothed.eastMps += c10 * eastPosition + c11 * eastVelocity
                smoothed.northM += c00 * northPosition + c01 * northVelocity
                smoothed.northMps += c10 * northPosition + c11 * northVelocity
                result[k] = LocalTangentPlane.Metres(eastM: smoothed.eastM, northM: smoothed.northM)
                later = smoothed
            }
            return result
        }
    }
}

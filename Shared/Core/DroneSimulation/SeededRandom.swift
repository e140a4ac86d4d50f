#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Randomness

/// xoshiro256** seeded through SplitMix64: the same seed always gives the same sequence, on every platform,
/// so a simulated flight can be replayed exactly.
public struct SeededRandom: RandomNumberGenerator, Sendable, Equatable {
    private var s0: UInt64
    private var s1: UInt64
    private var s2: UInt64
    private var s3: UInt64
    /// Second Box-Muller value, kept so each pair of uniforms yields two Gaussians.
    private var spareGaussian: Double?

    public init(seed: UInt64) {
        var mixer = SplitMix64(seed: seed)
        s0 = mixer.next()
        s1 = mixer.next()
        s2 = mixer.next()
        s3 = mixer.next()
        spareGaussian = nil
    }

    public mutating func next() -> UInt64 {
        let result = rotateLeft(s1 &* 5, 7) &* 9
        let t = s1 << 17
        s2 ^= s0
        s3 ^= s1
        s1 ^= s2
        s0 ^= s3
        s2 ^= t
        s3 = rotateLeft(s3, 45)
        return result
    }

    /// Uniform in [0, 1), 53 bits of precision.
    public mutating func nextUnit() -> Double {
        Double(next() >> 11) * 0x1.0p-53
    }

    /// Standard normal (mean 0, standard deviation 1) by the Box-Muller transform.
    public mutating func nextGaussian() -> Double {
        if let spare = spareGaussian {
            spareGaussian = nil
            return spare
        }
        // 1 − u keeps the logarithm's argument in (0, 1].
        let u1 = 1 - nextUnit()
        let u2 = nextUnit()
        let radius = (-2 * log(u1)).squareRoot()
        let angle = 2 * Double.pi * u2
        spareGaussian = radius * sin(angle)
        return radius * cos(angle)
    }

    private func rotateLeft(_ x: UInt64, _ k: UInt64) -> UInt64 {
        (x << k) | (x >> (64 - k))
    }
}

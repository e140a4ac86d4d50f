import Testing
@testable import DroneSimulation

@Suite struct SeededRandomTests {
    @Test func sameSeedSameSequence() {
        var a = SeededRandom(seed: 42)
        var b = SeededRandom(seed: 42)
        let first = (0..<100).map { _ in a.next() }
        let second = (0..<100).map { _ in b.next() }
        #expect(first == second)
    }

    @Test func differentSeedsDiffer() {
        var a = SeededRandom(seed: 1)
        var b = SeededRandom(seed: 2)
        let first = (0..<10).map { _ in a.next() }
        let second = (0..<10).map { _ in b.next() }
        #expect(first != second)
    }

    @Test func seedZeroStillProducesNonZeroOutput() {
        var random = SeededRandom(seed: 0)
        let values = (0..<4).map { _ in random.next() }
        #expect(values.contains { $0 != 0 })
    }

    @Test func unitValuesStayInRange() {
        var random = SeededRandom(seed: 7)
        let values = (0..<10_000).map { _ in random.nextUnit() }
        #expect(values.allSatisfy { $0 >= 0 && $0 < 1 })
    }

    @Test func gaussianHasRoughlyUnitVariance() {
        var random = SeededRandom(seed: 99)
        let samples = (0..<20_000).map { _ in random.nextGaussian() }
        let mean = samples.reduce(0, +) / Double(samples.count)
        let variance = samples.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(samples.count)
        #expect(abs(mean) < 0.05)
        #expect(abs(variance - 1) < 0.05)
    }
}

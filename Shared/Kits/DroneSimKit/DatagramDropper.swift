import DroneSimulation

/// Drops a seeded fraction of datagrams, to rehearse a lossy Wi-Fi link reproducibly.
struct DatagramDropper {
    let rate: Double
    private var random: SeededRandom

    init(rate: Double, seed: UInt64) {
        self.rate = min(max(rate, 0), 1)
        // A different stream from the drone's sensor noise, still fixed by the seed.
        random = SeededRandom(seed: seed ^ 0xD12_0B5E_ED)
    }

    mutating func shouldDrop() -> Bool {
        rate > 0 && random.nextUnit() < rate
    }
}

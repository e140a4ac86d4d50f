/// Accepts or drops navdata datagrams: decode, checksum, sequence order. Counts what it drops and measures the
/// rate of what it accepts.
struct NavdataIntake: Sendable, Equatable {
    enum Verdict: Sendable, Equatable {
        case accepted(NavdataPacket)
        case rejected(NavdataError)
        /// Sequence not above the last accepted one.
        case stale(sequence: UInt32, last: UInt32)
    }

    private(set) var checksumErrors: UInt32 = 0
    private(set) var malformedPackets: UInt32 = 0
    private(set) var stalePackets: UInt32 = 0
    private(set) var lastAcceptedUs: Int64?
    /// nil after a reset: the next packet is accepted whatever its sequence (drone reboot, navdata restart).
    private var lastSequence: UInt32?
    private var windowStartUs: Int64 = 0
    private var windowCount: UInt32 = 0
    private(set) var packetsPerSecond: Float = 0

    mutating func receive(_ bytes: [UInt8], nowUs: Int64) -> Verdict {
        let packet: NavdataPacket
        do {
            packet = try NavdataPacket.decode(bytes)
        } catch {
            if case .checksumMismatch = error { checksumErrors &+= 1 } else { malformedPackets &+= 1 }
            return .rejected(error)
        }
        if let lastSequence, packet.sequence <= lastSequence {
            stalePackets &+= 1
            return .stale(sequence: packet.sequence, last: lastSequence)
        }
        lastSequence = packet.sequence
        lastAcceptedUs = nowUs
        windowCount &+= 1
        return .accepted(packet)
    }

    /// Forget the expected sequence (after silence, or when the drone flags a com watchdog problem).
    mutating func resetSequence() {
        lastSequence = nil
    }

    /// Closes the rate window once it spans a second.
    mutating func updateRate(nowUs: Int64) {
        let elapsedUs = nowUs &- windowStartUs
        guard elapsedUs >= 1_000_000 else { return }
        packetsPerSecond = Float(windowCount) * 1_000_000 / Float(elapsedUs)
        windowStartUs = nowUs
        windowCount = 0
    }

    mutating func startRateWindow(nowUs: Int64) {
        windowStartUs = nowUs
        windowCount = 0
    }
}

/// Rate-limits a repeated log line: the first one goes out, later ones are summarised once per interval.
struct LogThrottle: Sendable, Equatable {
    private var lastLoggedUs: Int64?
    private var suppressed = 0

    /// Returns the text to log now (with a count of the lines swallowed since the last one), or nil.
    mutating func line(_ text: String, nowUs: Int64, intervalUs: Int64) -> String? {
        if let lastLoggedUs, nowUs &- lastLoggedUs < intervalUs {
            suppressed += 1
            return nil
        }
        defer { lastLoggedUs = nowUs; suppressed = 0 }
        return suppressed == 0 ? text : "\(text) (+\(suppressed) similar since the last report)"
    }
}

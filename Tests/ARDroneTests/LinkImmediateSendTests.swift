@testable import ARDrone
import QuadProtocol
import Testing

/// A new flight command goes out at once; small corrections ride the next 30 ms tick, so a controller that sends
/// many commands a second does not break the cadence.
@Suite("LinkStateMachine: immediate send")
struct LinkImmediateSendTests {
    @Test("a new mode or a large change goes out at once; a small correction waits for the tick")
    func significantChanges() {
        var h = LinkHarness()
        let t0 = h.bringUp()
        #expect(h.command(flight(.fly, progressive: true, pitch: -0.2, yaw: 0.3), at: t0 + 5_000)
            .contains { if case .sendAT = $0 { true } else { false } })
        // 0.02 of yaw more: no datagram now.
        let small = h.command(flight(.fly, progressive: true, pitch: -0.2, yaw: 0.32, sequence: 2), at: t0 + 10_000)
        #expect(!small.contains { if case .sendAT = $0 { true } else { false } })
        // The yaw sign flips (a new target to the other side): at once.
        let flip = h.command(flight(.fly, progressive: true, pitch: -0.2, yaw: -0.3, sequence: 3), at: t0 + 15_000)
        #expect(flip.contains { if case .sendAT = $0 { true } else { false } })
        // Hover is a new mode: at once.
        let hover = h.command(flight(.fly, progressive: false, sequence: 4), at: t0 + 20_000)
        #expect(hover.contains { if case .sendAT = $0 { true } else { false } })
    }

    @Test("the small correction is in the next tick's datagram")
    func smallCorrectionNextTick() throws {
        var h = LinkHarness()
        let t0 = h.bringUp()
        _ = h.command(flight(.fly, progressive: true, pitch: -0.2, yaw: 0.3), at: t0 + 5_000)
        _ = h.command(flight(.fly, progressive: true, pitch: -0.2, yaw: 0.32, sequence: 2), at: t0 + 10_000)
        h.advance(to: t0 + 36_000)
        let next = try #require(h.sent(from: t0 + 10_001).first)
        #expect(next.timeUs == t0 + 35_000)  // 30 ms after the last datagram
        #expect(next.text.contains("PCMD"))
        #expect(next.text.contains("\(ATFloat.encode(0.32))"))
    }
}

import Clocks
import GroundStation
import QuadProtocol
import Testing

/// A dead vehicle link shows as dead within 2 s on both links (issue 23), not as the last state it published: its
/// LinkStatus is retained and says "connected" for ever.
@Suite struct StatusBoardLinkDeathTests {
    static let ok = LinkStatus(sequence: 1, timestampUs: 0, connected: true, fallbackHover: false, reason: .ok,
                               navdataPerSecond: 10, checksumErrors: 0, malformedPackets: 0, lastNavdataAgeMs: 5,
                               lastCommandAgeMs: 30)

    @Test(arguments: StatusBoard.linkServices)
    func offlinePresenceIsDeadAtOnce(link: String) {
        var board = StatusBoard(drone: .default)
        board.update(presence: ServicePresence(name: link, online: true), receivedAt: .init(us: 0))
        board.update(link: Self.ok, receivedAt: .init(us: 100_000))
        #expect(board.linkWord(now: .init(us: 500_000)) == "ok")
        board.update(presence: ServicePresence(name: link, online: false), receivedAt: .init(us: 600_000))
        #expect(board.linkWord(now: .init(us: 700_000)) == "dead")
        #expect(board.render(now: .init(us: 4_600_000)).contains("DEAD: \(link) offline 4s"))
    }

    @Test func silenceOverTwoSecondsIsDead() {
        var board = StatusBoard(drone: .default)
        board.update(link: Self.ok, receivedAt: .init(us: 1_000_000))
        #expect(board.linkWord(now: .init(us: 2_900_000)) == "ok")
        #expect(board.linkWord(now: .init(us: 3_100_000)) == "dead")
        board.update(link: Self.ok, receivedAt: .init(us: 3_200_000))
        #expect(board.linkWord(now: .init(us: 3_300_000)) == "ok", "back as soon as it reports again")
    }
}

import Testing
@testable import GPSD

@Suite struct GPSDStreamTests {
    func events(_ bytes: [UInt8], chunk: Int) -> [GPSDStream.Event] {
        var stream = GPSDStream()
        var events: [GPSDStream.Event] = []
        var start = 0
        while start < bytes.count {
            let end = min(bytes.count, start + chunk)
            events += stream.receive(bytes[start..<end])
            start = end
        }
        return events + stream.finish()
    }

    @Test(arguments: [1, 7, 64, 100_000])
    func chunkingDoesNotChangeTheEvents(chunk: Int) throws {
        let bytes = try Fixture.bytes("gpsd-walk.jsonl")
        #expect(events(bytes, chunk: chunk) == events(bytes, chunk: bytes.count))
    }

    @Test func realSessionYieldsVersionDevicesWatchThenFixesWithAGap() throws {
        let all = events(try Fixture.bytes("gpsd-walk.jsonl"), chunk: 512)
        guard all.count >= 3, case .version(let v) = all[0], case .devices(let d) = all[1], case .watch(let w) = all[2]
        else { Issue.record("unexpected opening: \(all.prefix(3))"); return }
        #expect(v.protocolMajor == 3)
        #expect(d.count == 1)
        #expect(w.enable && w.json)
        let kinds = all.dropFirst(3).map { event -> Character in
            switch event {
            case .fix: "F"
            case .noFix: "n"
            default: "?"
            }
        }
        #expect(String(kinds) == String(repeating: "F", count: 13) + "nnnnn" + String(repeating: "F", count: 13))
    }

    @Test func garbageAndOverlongLinesBecomeEventsNotCrashes() {
        var stream = GPSDStream(maxLineBytes: 64)
        let input = "not json\n{\"class\":\"ERROR\",\"message\":\"bad\"}\n" + String(repeating: "x", count: 100) + "\n"
        let events = stream.receive(Array(input.utf8))
        #expect(events.count == 3)
        if case .malformedLine = events.first {} else { Issue.record("expected malformedLine") }
        #expect(events.dropFirst().first == .gpsdError(message: "bad"))
        #expect(events.last == .overlongLine(byteCount: 100))
    }

    @Test func remembersSatellitesUsedFromSky() {
        var stream = GPSDStream()
        #expect(stream.receive(Array("{\"class\":\"SKY\",\"uSat\":9}\n".utf8)).isEmpty)
        #expect(stream.satellitesUsed == 9)
    }
}

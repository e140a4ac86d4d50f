import ARDrone
import Testing

@Suite struct ATSequencerTests {
    private func text(_ datagrams: [[UInt8]]) -> [String] {
        datagrams.map { String(decoding: $0, as: UTF8.self) }
    }

    @Test func startsAtOneAndPacksOneTickIntoOneDatagram() throws {
        var sequencer = ATSequencer()
        let datagrams = try sequencer.pack([.takeoff, .hover])
        #expect(text(datagrams) == ["AT*REF=1,290718208\rAT*PCMD=2,0,0,0,0,0\r"])
        #expect(sequencer.nextSequence == 3)
    }

    @Test func keepsIncreasingAcrossCallsAndResetsToOne() throws {
        var sequencer = ATSequencer()
        _ = try sequencer.pack([.land, .hover])
        #expect(text(try sequencer.pack([.comwdg])) == ["AT*COMWDG=3\r"])
        sequencer.reset()
        #expect(text(try sequencer.pack([.ctrl(mode: ATControlMode.ack)])) == ["AT*CTRL=1,5,0\r"])
    }

    @Test func wrapsToOneInsteadOfLeavingInt32Range() throws {
        var sequencer = ATSequencer(nextSequence: UInt32(Int32.max))
        #expect(text(try sequencer.pack([.hover, .hover])) == ["AT*PCMD=2147483647,0,0,0,0,0\rAT*PCMD=1,0,0,0,0,0\r"])
        #expect(sequencer.nextSequence == 2)
    }

    @Test func emptyInputGivesNoDatagrams() throws {
        var sequencer = ATSequencer()
        #expect(try sequencer.pack([]).isEmpty)
        #expect(sequencer.nextSequence == 1)
    }

    @Test func splitsAtTheLimitWithoutSplittingACommand() throws {
        var sequencer = ATSequencer()
        // About 50 bytes each: 60 of them need three datagrams.
        let value = String(repeating: "v", count: 16)
        let commands = Array(repeating: ATCommand.config(key: "general:navdata", value: value), count: 60)
        let datagrams = try sequencer.pack(commands)
        #expect(datagrams.count > 1)
        for datagram in datagrams {
            #expect(datagram.count <= ATSequencer.maxDatagramBytes)
            #expect(datagram.last == 0x0D)
        }
        let all = datagrams.flatMap { $0 }
        let joined = String(decoding: all, as: UTF8.self)
        let commandsText = joined.split(separator: "\r")
        #expect(commandsText.count == 60)
        for (index, command) in commandsText.enumerated() {
            #expect(command.hasPrefix("AT*CONFIG=\(index + 1),"))
        }
        // Greedy: each datagram but the last could not take the next command.
        for (index, datagram) in datagrams.dropLast().enumerated() {
            let nextCommandLength = Array(datagrams[index + 1].split(separator: 0x0D).first ?? []).count + 1
            #expect(datagram.count + nextCommandLength > ATSequencer.maxDatagramBytes)
        }
    }

    @Test func aCommandThatFillsADatagramAloneGetsItsOwn() throws {
        var sequencer = ATSequencer()
        // "AT*CONFIG=2,"k","…"\r" with 1000 x's is 1019 bytes.
        let big = ATCommand.config(key: "k", value: String(repeating: "x", count: 1000))
        let datagrams = try sequencer.pack([.hover, big, .hover])
        #expect(datagrams.map(\.count) == [20, 1019, 20])
    }

    @Test func rejectsCommandLongerThanADatagram() {
        var sequencer = ATSequencer()
        // "AT*CONFIG=1,"k","…"\r" with 1010 x's is 1029 bytes.
        let command = ATCommand.config(key: "k", value: String(repeating: "x", count: 1010))
        #expect(throws: ATEncodingError.commandTooLong(command: "CONFIG", byteCount: 1029, limit: 1024)) {
            try sequencer.pack([command])
        }
        #expect(sequencer.nextSequence == 1)
    }

    @Test func invalidCommandLeavesSequenceUntouched() {
        var sequencer = ATSequencer()
        #expect(throws: ATEncodingError.self) {
            try sequencer.pack([.hover, .config(key: "\"", value: "")])
        }
        #expect(sequencer.nextSequence == 1)
    }
}

import ARDrone
import Testing

@Suite struct ATParserTests {
    private func parse(_ text: String) -> [Result<ParsedATCommand, ATParseError>] {
        ATParser.parse(datagram: Array(text.utf8))
    }

    private func commands(_ text: String) throws -> [ParsedATCommand] {
        try parse(text).map { try $0.get() }
    }

    @Test func nodeArDroneIdleAndFlyingDatagrams() throws {
        #expect(try commands("AT*REF=0,512\rAT*PCMD=1,0,0,0,0,0\r") == [
            ParsedATCommand(sequence: 0, command: .ref(512)),
            ParsedATCommand(sequence: 1, command: .hover),
        ])
        #expect(try commands("AT*REF=41,0\rAT*PCMD=42,0,0,0,0,0\r").map(\.command) == [.ref(0), .hover])
        #expect(try commands("AT*REF=3,256\r").map(\.command) == [.ref(256)])
    }

    @Test func sdkStyleTick() throws {
        #expect(try commands("AT*REF=7,290718208\rAT*PCMD=8,1,0,-1102263091,0,1036831949\r") == [
            ParsedATCommand(sequence: 7, command: .takeoff),
            ParsedATCommand(sequence: 8, command: .pcmd(flag: 1, roll: 0, pitch: -0.2, gaz: 0, yaw: 0.1)),
        ])
    }

    @Test(arguments: ["\n", "\r\n", "\n\r"])
    func acceptsLineFeedTerminators(terminator: String) throws {
        let text = "AT*COMWDG=4" + terminator + "AT*FTRIM=5" + terminator
        #expect(try commands(text).map(\.command) == [.comwdg, .ftrim])
    }

    @Test func configWithCommasInsideQuotes() throws {
        let text = "AT*CONFIG=9,\"control:flight_anim\",\"3,1000\"\r"
            + "AT*CONFIG=10,\"leds:leds_anim\",\"3,1073741824,2\"\r"
        #expect(try commands(text).map(\.command) == [
            .config(key: "control:flight_anim", value: "3,1000"),
            .config(key: "leds:leds_anim", value: "3,1073741824,2"),
        ])
    }

    @Test func everyTypedCommandRoundTripsThroughTheEncoder() throws {
        let all: [ATCommand] = [
            .takeoff, .land, .emergencyToggle, .hover,
            .pcmd(flag: 1, roll: -1, pitch: 0.5, gaz: 0.75, yaw: -0.8),
            .pcmdMag(flag: 5, roll: 0.1, pitch: 0.2, gaz: -0.2, yaw: 1, psi: -0.5, psiAccuracy: 0.25),
            .ftrim, .comwdg, .calib(device: 0), .ctrl(mode: 5), .ctrl(mode: 4),
            .config(key: "general:navdata_demo", value: "TRUE"), .config(key: "custom:session_id", value: ""),
            .configIDs(session: "ad1efdac", user: "992f7f4f", application: "510acf97"),
            .led(animation: 2, frequencyHz: 0.5, durationS: 3), .anim(animation: 16, durationMs: 15),
            .other(name: "PMODE", arguments: [.integer(2)]),
            .other(name: "MISC", arguments: [.integer(2), .integer(20), .integer(2000), .integer(3000)]),
            .other(name: "VICON", arguments: [.string("a,b"), .integer(-7)]),
        ]
        var sequencer = ATSequencer()
        let datagrams = try sequencer.pack(all)
        let parsed = try datagrams.flatMap { try ATParser.parse(datagram: $0).map { try $0.get() } }
        #expect(parsed.map(\.command) == all)
        #expect(parsed.map(\.sequence) == Array(1...UInt32(all.count)))
    }

    @Test func tolerances() throws {
        // cvdrone's CTRL without the trailing 0; a trailing comma; an unsigned float bit pattern.
        #expect(try commands("AT*CTRL=3,0\r").map(\.command) == [.ctrl(mode: 0)])
        #expect(try commands("AT*FTRIM=5,\r").map(\.command) == [.ftrim])
        #expect(try commands("AT*PCMD=2,1,0,3192704205,0,0\r").map(\.command) == [
            .pcmd(flag: 1, roll: 0, pitch: -0.2, gaz: 0, yaw: 0),
        ])
        #expect(try commands("\r\r").isEmpty)
        #expect(try commands("").isEmpty)
    }

    @Test func oneBadCommandDoesNotSpoilTheOthers() {
        let results = parse("AT*REF=1,0\rAT*PCMD=2,1\rAT*COMWDG=3\r")
        #expect(results.count == 3)
        #expect((try? results[0].get())?.command == .ref(0))
        #expect(throws: ATParseError.wrongArgumentCount(command: "PCMD", expected: 5...5, got: 1)) {
            try results[1].get()
        }
        #expect((try? results[2].get())?.command == .comwdg)
    }

    static let malformed: [(String, ATParseError)] = [
        ("REF=1,0\r", .missingPrefix(text: "REF=1,0")),
        ("at*REF=1,0\r", .missingPrefix(text: "at*REF=1,0")),
        ("AT*REF\r", .missingEquals(text: "AT*REF")),
        ("AT*=1\r", .invalidName("")),
        ("AT*ref=1,0\r", .invalidName("ref")),
        ("AT*REF=x,0\r", .invalidSequence(command: "REF", text: "x")),
        ("AT*REF=-1,0\r", .invalidSequence(command: "REF", text: "-1")),
        ("AT*REF=,0\r", .invalidSequence(command: "REF", text: "")),
        ("AT*REF=4294967296,0\r", .invalidSequence(command: "REF", text: "4294967296")),
        ("AT*REF=\"1\",0\r", .invalidSequence(command: "REF", text: "\"1\"")),
        ("AT*REF=1\r", .wrongArgumentCount(command: "REF", expected: 1...1, got: 0)),
        ("AT*REF=1,2,3\r", .wrongArgumentCount(command: "REF", expected: 1...1, got: 2)),
        ("AT*PCMD=1,0,0,0,0\r", .wrongArgumentCount(command: "PCMD", expected: 5...5, got: 4)),
        ("AT*PCMD_MAG=1,0,0,0,0,0\r", .wrongArgumentCount(command: "PCMD_MAG", expected: 7...7, got: 5)),
        ("AT*FTRIM=1,0\r", .wrongArgumentCount(command: "FTRIM", expected: 0...0, got: 1)),
        ("AT*CTRL=1\r", .wrongArgumentCount(command: "CTRL", expected: 1...2, got: 0)),
        ("AT*CONFIG=1,\"k\"\r", .wrongArgumentCount(command: "CONFIG", expected: 2...2, got: 1)),
        ("AT*REF=1,0.5\r", .nonIntegerArgument(command: "REF", argumentIndex: 0, text: "0.5")),
        ("AT*PCMD=1,0,0,abc,0,0\r", .nonIntegerArgument(command: "PCMD", argumentIndex: 2, text: "abc")),
        ("AT*PCMD=1,0,0,,0,0\r", .nonIntegerArgument(command: "PCMD", argumentIndex: 2, text: "")),
        ("AT*CALIB=1,-\r", .nonIntegerArgument(command: "CALIB", argumentIndex: 0, text: "-")),
        ("AT*CALIB=1, 0\r", .nonIntegerArgument(command: "CALIB", argumentIndex: 0, text: " 0")),
        ("AT*REF=1,4294967296\r", .nonIntegerArgument(command: "REF", argumentIndex: 0, text: "4294967296")),
        ("AT*REF=1,-2147483649\r", .nonIntegerArgument(command: "REF", argumentIndex: 0, text: "-2147483649")),
        ("AT*REF=1,\"512\"\r", .nonIntegerArgument(command: "REF", argumentIndex: 0, text: "\"512\"")),
        ("AT*MISC=1,2,x\r", .nonIntegerArgument(command: "MISC", argumentIndex: 1, text: "x")),
        ("AT*CONFIG=1,key,\"v\"\r", .unquotedStringArgument(command: "CONFIG", argumentIndex: 0, text: "key")),
        ("AT*CONFIG=1,\"key\",\"v\r", .unterminatedQuote(command: "CONFIG", argumentIndex: 1)),
        ("AT*CONFIG=1,\"k\"x,\"v\"\r", .malformedArgument(command: "CONFIG", argumentIndex: 0, text: "\"k\"x")),
        ("AT*CONFIG=1,k\"x\",\"v\"\r", .malformedArgument(command: "CONFIG", argumentIndex: 0, text: "k\"x\"")),
        ("AT*REF=1,0", .missingTerminator(text: "AT*REF=1,0")),
        ("AT*REF=1,0\t\r", .invalidByte(0x09, offset: 10)),
        ("AT*CONFIG=1,\"k\",\"caf\u{E9}\"\r", .invalidByte(0xC3, offset: 20)),
    ]

    @Test(arguments: malformed)
    func rejectsMalformed(text: String, error: ATParseError) {
        let results = parse(text)
        #expect(results.count == 1)
        #expect(throws: error) { try results.first?.get() }
    }

    @Test func rejectsOversizeDatagramWhole() {
        let datagram = Array(repeating: Array("AT*COMWDG=1\r".utf8), count: 86).flatMap { $0 }
        #expect(datagram.count == 1032)
        #expect(ATParser.parse(datagram: datagram).count == 1)
        #expect(throws: ATParseError.datagramTooLong(byteCount: 1032, limit: 1024)) {
            try ATParser.parse(datagram: datagram).first?.get()
        }
    }

    @Test func invalidBytesReportTheirDatagramOffset() {
        let results = ATParser.parse(datagram: Array("AT*COMWDG=1\r".utf8) + [0x41, 0x00, 0xFF] + [0x0D])
        #expect(results.count == 2)
        #expect(throws: ATParseError.invalidByte(0x00, offset: 13)) { try results[1].get() }
    }
}

import ARDrone
import QuadProtocol
import Testing

@Suite struct LinkStateMachineTests {
    // MARK: Start-up and navdata trigger

    @Test func startupClearsTheAckBitWithSequenceOneThenTriggersNavdata() throws {
        var link = LinkHarness()
        let actions = link.start(at: 0)
        guard case .sendAT(let bytes) = try #require(actions.first) else {
            Issue.record("first action \(actions)")
            return
        }
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.hasPrefix("AT*CTRL=1,5,0\r"))
        #expect(actions.dropFirst().first == .sendNavdataTrigger)
        // REF is withheld until it is known whether the drone flies; PCMD hover keeps the link alive.
        #expect(commandsOf(text) == ["CTRL=5,0", "PCMD=0,0,0,0,0"])
        let status = try #require(link.statuses().first?.health)
        #expect(!status.connected && status.reason == .navdataLost)
    }

    @Test func triggerIsResentAfter200msOfSilenceAndNotWhileNavdataFlows() {
        var link = LinkHarness()
        link.start(at: 0)
        link.advance(to: 450_000)
        #expect(link.triggerTimes() == [0, 200_000, 400_000])
        for t in stride(from: Int64(500_000), through: 1_000_000, by: 50_000) { link.navdata(at: t) }
        link.advance(to: 1_150_000)
        #expect(link.triggerTimes() == [0, 200_000, 400_000])
        link.advance(to: 1_250_000)
        #expect(link.triggerTimes() == [0, 200_000, 400_000, 1_200_000])
    }

    @Test func refFollowsTheDronesFlyingBitUntilTheFirstCommand() {
        var link = LinkHarness()
        link.start(at: 0)
        link.navdata(LinkHarness.demoState.union(.flying), at: 10_000)
        link.advance(to: 40_000)
        #expect(link.lastCommands().contains(REF.fly))
    }

    // MARK: Configuration handshake

    @Test func bootstrapIsConfiguredToDemoThenOptionsWithTheAckHandshake() {
        var link = LinkHarness()
        link.start(at: 0)
        let bootstrap: DroneStateFlags = [.navdataBootstrap, .comWatchdog]
        link.navdata(bootstrap, options: [], at: 10_000)
        link.advance(to: 30_000)
        #expect(link.statuses().last?.health.reason == .configuring)
        #expect(link.lastCommands().contains(#"CONFIG="general:navdata_demo","TRUE""#))
        // Not acknowledged yet: no CTRL, no second CONFIG.
        link.navdata(bootstrap, options: [], at: 50_000)
        link.advance(to: 60_000)
        #expect(!link.sent(from: 31_000).contains { $0.text.contains("CONFIG") || $0.text.contains("CTRL") })
        // ACK: CTRL 5,0 on every datagram while bit 6 stays set.
        link.navdata([.navdataBootstrap, .controlCommandAck], options: [], at: 70_000)
        link.advance(to: 130_000)
        let clearing = link.sent(from: 70_000, through: 130_000)
        #expect(clearing.count == 2)
        #expect(clearing.allSatisfy { commandsOf($0.text).contains("CTRL=5,0") })
        // Bit 6 clear, demo bit set: the options config follows, with the same handshake.
        link.navdata(LinkHarness.demoState, at: 140_000)
        link.advance(to: 160_000)
        #expect(link.lastCommands().contains(#"CONFIG="general:navdata_options","138412033""#))
        link.navdata(LinkHarness.demoState.union(.controlCommandAck), at: 170_000)
        link.advance(to: 190_000)
        #expect(link.lastCommands().contains("CTRL=5,0"))
        link.navdata(LinkHarness.demoState, at: 200_000)
        link.advance(to: 400_000)
        #expect(link.statuses().last?.health.reason == .ok)
        #expect(!link.sent(from: 201_000).contains { $0.text.contains("CONFIG") || $0.text.contains("CTRL") })
        // Exactly two CONFIGs were ever sent.
        #expect(link.sent().filter { $0.text.contains("CONFIG") }.count == 2)
    }

    /// drone-link's `--max-altitude` / `--max-tilt`: written into the drone's own config after the navdata options,
    /// each with the ACK handshake, so the aircraft enforces them even if the board dies.
    @Test func envelopeConfigsFollowTheOptionsWithTheAckHandshake() {
        var link = LinkHarness()
        link.machine = LinkStateMachine(envelope: DroneEnvelope(maxAltitudeM: 6.5, maxTiltDeg: 15))
        link.start(at: 0)
        var timeUs: Int64 = 10_000
        // Demo navdata without the options: options, then the two envelope configs, each ACKed and cleared.
        for _ in 0..<3 {
            link.navdata(LinkHarness.demoState, at: timeUs)
            link.advance(to: timeUs + 40_000)
            link.navdata(LinkHarness.demoState.union(.controlCommandAck), at: timeUs + 50_000)
            link.advance(to: timeUs + 80_000)
            link.navdata(LinkHarness.demoState, at: timeUs + 90_000)
            timeUs += 100_000
        }
        link.navdata(LinkHarness.demoState, at: timeUs)
        link.advance(to: timeUs + 100_000)
        let configs = link.sent().flatMap { commandsOf($0.text) }.filter { $0.hasPrefix("CONFIG=") }
        #expect(configs == [#"CONFIG="general:navdata_options","138412033""#,
                            #"CONFIG="control:altitude_max","6500""#,
                            #"CONFIG="control:euler_angle_max","\#(15 * Double.pi / 180)""#])
        #expect(link.statuses().last?.health.reason == .ok)
    }

    @Test func configWithoutAckIsSentAgainAfter500ms() {
        var link = LinkHarness()
        link.start(at: 0)
        for t in stride(from: Int64(10_000), through: 1_300_000, by: 50_000) {
            link.navdata([.navdataBootstrap], options: [], at: t)
        }
        let configTimes = link.sent().filter { $0.text.contains("navdata_demo") }.map(\.timeUs)
        #expect(configTimes.count == 3)
        #expect(zip(configTimes, configTimes.dropFirst()).allSatisfy { $1 - $0 >= 500_000 && $1 - $0 < 540_000 })
    }

    @Test func aStaleAckBitIsClearedBeforeTheConfigIsSent() {
        var link = LinkHarness()
        link.start(at: 0)
        link.navdata([.navdataBootstrap, .controlCommandAck], options: [], at: 10_000)
        link.advance(to: 30_000)
        #expect(link.lastCommands().contains("CTRL=5,0"))
        #expect(!link.sent().contains { $0.text.contains("CONFIG") })
        link.navdata([.navdataBootstrap], options: [], at: 40_000)
        link.advance(to: 60_000)
        #expect(link.lastCommands().contains(#"CONFIG="general:navdata_demo","TRUE""#))
    }

    // MARK: Cadence and commands

    @Test func oneDatagramEvery30msWithRefAndPcmd() {
        var link = LinkHarness()
        let up = link.bringUp()
        link.advance(to: up + 1_000_000)
        let sends = link.sent(from: up)
        #expect(sends.count >= 33)
        #expect(zip(sends, sends.dropFirst()).allSatisfy { $1.timeUs - $0.timeUs == 30_000 })
        #expect(sends.allSatisfy { commandsOf($0.text).suffix(2) == [REF.land, "PCMD=0,0,0,0,0"] })
    }

    @Test func aNewCommandIsSentAtOnceAndRestartsTheCadence() throws {
        var link = LinkHarness()
        let up = link.bringUp()
        link.navdata(LinkHarness.demoState.union(.flying), at: up + 1_000)  // in the air: fly keeps it there
        link.advance(to: up + 100_000)
        let at = up + 105_000
        let actions = link.command(flight(.fly, progressive: true, pitch: -0.2, yaw: 0.5), at: at)
        guard case .sendAT(let bytes) = try #require(actions.first { if case .sendAT = $0 { true } else { false } })
        else { return }
        #expect(commandsOf(String(decoding: bytes, as: UTF8.self)) == [REF.fly, "PCMD=1,0,-1102263091,0,1056964608"])
        #expect(link.machine.nextDeadline?.us == at + 30_000)
        link.advance(to: at + 100_000)
        #expect(link.sent(from: at).map(\.timeUs) == [at, at + 30_000, at + 60_000, at + 90_000])
    }

    @Test func commandTimeoutHoversKeepsTheFlyBitAndReportsWhy() throws {
        var link = LinkHarness()
        var t = link.bringUp() + 1_000
        let flying = LinkHarness.demoState.union(.flying)
        link.navdata(flying, at: t - 500)
        link.command(flight(.fly, progressive: true, pitch: -0.2), at: t)
        let lastCommand = t
        // Navdata keeps flowing; commands stop.
        while t < lastCommand + 400_000 { t += 50_000; link.navdata(flying, at: t) }
        let hover = link.sent(from: lastCommand + 250_000)
        #expect(hover.first?.timeUs == lastCommand + 250_000)
        #expect(hover.allSatisfy { commandsOf($0.text).suffix(2) == [REF.fly, "PCMD=0,0,0,0,0"] })
        let beforeTimeout = link.sent(from: lastCommand, through: lastCommand + 249_999)
        #expect(beforeTimeout.allSatisfy { $0.text.contains(",1,0,-1102263091") })
        let status = try #require(link.statuses().first { $0.timeUs == lastCommand + 250_000 })
        #expect(status.health.fallbackHover && status.health.reason == .commandTimeout && status.health.connected)
        // A fresh command ends the fallback.
        link.command(flight(.fly, progressive: true, pitch: -0.2), at: t + 1_000)
        #expect(link.statuses().last.map { !$0.health.fallbackHover && $0.health.reason == .ok } == true)
    }

    @Test func comwdgFollowsStateBit30AndResetsTheExpectedSequence() throws {
        var link = LinkHarness()
        let up = link.bringUp()
        link.datagram(NavdataPacket(state: LinkHarness.demoState.union(.comWatchdog), sequence: 500,
                                    options: [.demo(LinkHarness.demo)]).encoded(), at: up + 10_000)
        link.advance(to: up + 40_000)
        #expect(commandsOf(link.sent(from: up + 10_000).first!.text).first == "COMWDG")
        #expect(!link.sent(from: up + 41_000).contains { $0.text.contains("COMWDG") })
        // A lower sequence right after is accepted (expected sequence was reset).
        let actions = link.datagram(NavdataPacket(state: LinkHarness.demoState, sequence: 3,
                                                  options: [.demo(LinkHarness.demo)]).encoded(), at: up + 50_000)
        #expect(actions.contains { if case .publishDroneState = $0 { true } else { false } })
    }

    // MARK: Emergency and flat trim

    @Test func emergencyCutoffSetsBit8OnlyUntilTheDroneReportsEmergency() {
        var link = LinkHarness()
        var t = link.bringUp()
        link.command(flight(.emergencyCutoff), at: t + 1_000)
        #expect(link.lastCommands().contains(REF.emergency))
        t += 50_000
        link.navdata(LinkHarness.demoState.union(.emergency), at: t)
        link.command(flight(.emergencyCutoff, sequence: 2), at: t + 1_000)
        link.advance(to: t + 100_000)
        #expect(link.sent(from: t).allSatisfy { commandsOf($0.text).contains(REF.land) })
    }

    @Test func emergencyRecoverHoldsBit8WhileInEmergencyOnly() {
        var link = LinkHarness()
        var t = link.bringUp()
        link.command(flight(.emergencyRecover), at: t + 1_000)
        #expect(link.lastCommands().contains(REF.land))     // not in emergency: no toggle
        t += 50_000
        link.navdata(LinkHarness.demoState.union(.emergency), at: t)
        link.command(flight(.emergencyRecover, sequence: 2), at: t + 1_000)
        link.advance(to: t + 90_000)
        #expect(link.sent(from: t).allSatisfy { commandsOf($0.text).contains(REF.emergency) })
        link.navdata(LinkHarness.demoState, at: t + 100_000)
        link.advance(to: t + 200_000)
        #expect(link.sent(from: t + 100_000).allSatisfy { commandsOf($0.text).contains(REF.land) })
    }

    @Test func flatTrimIsSentOnceAndOnlyWhileLanded() {
        var link = LinkHarness()
        let up = link.bringUp()
        link.command(flight(.land, flatTrim: true), at: up + 1_000)
        link.command(flight(.land, flatTrim: true, sequence: 2), at: up + 20_000)
        link.advance(to: up + 200_000)
        #expect(link.sent().filter { $0.text.contains("FTRIM") }.count == 1)

        var flying = LinkHarness()
        let t = flying.bringUp()
        flying.navdata(LinkHarness.demoState.union(.flying), at: t + 10_000)
        let actions = flying.command(flight(.fly, flatTrim: true), at: t + 20_000)
        #expect(!flying.sent().contains { $0.text.contains("FTRIM") })
        #expect(actions.contains { if case .log(_, let text) = $0 { text.contains("flying") } else { false } })
    }

    // MARK: Navdata checks

    @Test func checksumErrorsAreCountedAndDropped() throws {
        var link = LinkHarness()
        let up = link.bringUp()
        let packet = NavdataPacket(state: LinkHarness.demoState, sequence: 1000, options: [.demo(LinkHarness.demo)])
        var bytes = packet.encoded()
        bytes[30] ^= 0x01
        let first = link.datagram(bytes, at: up + 5_000)
        #expect(!first.contains { if case .publishDroneState = $0 { true } else { false } })
        #expect(first.contains { if case .log(.warning, _) = $0 { true } else { false } })
        let second = link.datagram(bytes, at: up + 6_000)
        #expect(!second.contains { if case .log = $0 { true } else { false } })   // rate-limited
        link.datagram([0x88, 0x77, 0x66], at: up + 7_000)
        let health = link.machine.health(now: .init(us: up + 8_000))
        #expect(health.checksumErrors == 2 && health.malformedPackets == 1)
    }

    @Test func packetsWithOldSequencesAreDroppedUntilTheNextReset() {
        var link = LinkHarness()
        let up = link.bringUp()
        let old = NavdataPacket(state: LinkHarness.demoState, sequence: 2, options: [.demo(LinkHarness.demo)]).encoded()
        let dropped = link.datagram(old, at: up + 5_000)
        #expect(!dropped.contains { if case .publishDroneState = $0 { true } else { false } })
        #expect(link.machine.health(now: .init(us: up + 5_000)).stalePackets == 1)
        // After 200 ms of silence the trigger is re-sent and the expected sequence forgotten (drone reboot).
        link.advance(to: up + 250_000)
        let accepted = link.datagram(old, at: up + 260_000)
        #expect(accepted.contains { if case .publishDroneState = $0 { true } else { false } })
    }

    @Test func gpsWithDataPublishesAPosition() {
        var link = LinkHarness()
        let up = link.bringUp()
        let fix = NavdataGPS(latitudeDeg: 52.5, longitudeDeg: 13.4)
        let actions = link.navdata(options: [.demo(LinkHarness.demo), .gps(fix)], at: up + 10_000)
        #expect(actions.contains { if case .publishPosition = $0 { true } else { false } })
        let noFix = NavdataGPS(latitudeDeg: 0, longitudeDeg: 0, dataAvailable: 0)
        let none = link.navdata(options: [.demo(LinkHarness.demo), .gps(noFix)], at: up + 20_000)
        #expect(!none.contains { if case .publishPosition = $0 { true } else { false } })
    }

    // MARK: Status

    @Test func navdataLossIsReportedWithinOneSecond() throws {
        var link = LinkHarness()
        let up = link.bringUp()
        #expect(link.statuses().last?.health.connected == true)
        link.advance(to: up + 1_000_000)
        let lost = try #require(link.statuses().first { $0.timeUs > up && !$0.health.connected })
        #expect(lost.timeUs - up <= 1_000_000)
        #expect(lost.health.reason == .navdataLost)
    }

    @Test func statusIsPublishedAtLeastOncePerSecond() throws {
        var link = LinkHarness()
        var t = link.bringUp()
        while t < 5_000_000 { t += 50_000; link.navdata(at: t) }
        let times = link.statuses().map(\.timeUs)
        #expect(zip(times, times.dropFirst()).allSatisfy { $1 - $0 <= 1_000_000 })
        let rate = try #require(link.statuses().last?.health.navdataPerSecond)
        #expect(rate > 19 && rate < 21)
    }

    @Test func datagramsNeverExceed1024BytesAndNumbersIncrease() {
        var link = LinkHarness()
        link.start(at: 0)
        var t: Int64 = 0
        let states: [DroneStateFlags] = [[.navdataBootstrap, .comWatchdog], [.navdataBootstrap, .controlCommandAck],
                                         [.navdataDemo, .comWatchdog, .controlCommandAck], [.navdataDemo, .emergency]]
        for i in 0..<200 {
            t += 17_000
            link.navdata(states[i % states.count], at: t)
            if i % 3 == 0 {
                link.command(flight(i % 2 == 0 ? .emergencyRecover : .fly, progressive: true, pitch: -1, yaw: 1,
                                    flatTrim: i % 6 == 0, sequence: UInt32(i)), at: t + 5_000)
            }
        }
        let datagrams = link.datagrams()
        #expect(datagrams.allSatisfy { $0.count <= 1024 })
        let numbers = link.sent().flatMap { sequencesOf($0.text) }
        #expect(numbers.first == 1)
        #expect(zip(numbers, numbers.dropFirst()).allSatisfy { $1 == $0 + 1 })
    }

    @Test func stopSendsHoverKeepingTheFlyBitReportsDisconnectedAndEndsTheDeadlines() {
        var link = LinkHarness()
        let up = link.bringUp()
        link.navdata(LinkHarness.demoState.union(.flying), at: up + 500)
        link.command(flight(.fly, progressive: true, pitch: -0.5), at: up + 1_000)
        let actions = link.machine.stop(now: .init(us: up + 2_000))
        let texts = actions.compactMap { action -> String? in
            guard case .sendAT(let bytes) = action else { return nil }
            return String(decoding: bytes, as: UTF8.self)
        }
        #expect(texts.count == 1)
        #expect(commandsOf(texts[0]).suffix(2) == [REF.fly, "PCMD=0,0,0,0,0"])
        let final = actions.compactMap { action -> LinkHealth? in
            guard case .publishLinkStatus(let health) = action else { return nil }
            return health
        }
        #expect(final.count == 1 && final.first?.connected == false && final.first?.fallbackHover == true)
        #expect(link.machine.nextDeadline?.us == nil)
    }
}

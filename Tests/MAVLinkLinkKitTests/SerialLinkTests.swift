import Clocks
import DatagramIO
import MAVLink
import MAVLinkCompanion
import QuadProtocol
import Testing
@testable import MAVLinkLinkKit

/// mavlink-link's serial transport, its pure parts: frames reassembled from a byte stream, the baud table, the
/// no-MAVLink rule and the reopening of a vanished device, with time passed in.
@Suite("mavlink-link serial link")
struct SerialLinkTests {
    static func at(_ seconds: Double) -> MonotonicInstant { MonotonicInstant(us: Int64(seconds * 1_000_000)) }

    /// Three of the autopilot's frames with garbage before, between and after them (no magic byte in it).
    static let garbage: [UInt8] = [0x00, 0x11, 0x42, 0x13]
    static let stream: [UInt8] = {
        var autopilot = MAVLinkEncoder(systemId: 1, componentId: 1)
        let heartbeat = autopilot.encode(Heartbeat(customMode: 0, type: MAVType.quadrotor, autopilot: MAVAutopilot.px4,
                                                   baseMode: MAVModeFlag.customModeEnabled,
                                                   systemStatus: MAVState.standby))
        let state = autopilot.encode(ExtendedSysState(landedState: .onGround))
        let position = autopilot.encode(GlobalPositionInt(timeBootMs: 0, latE7: 525_163_000, lonE7: 133_777_000,
                                                          altMm: 34_000, relativeAltMm: 0, vxCmps: 0, vyCmps: 0,
                                                          vzCmps: 0, hdgCdeg: 0))
        return garbage + heartbeat + garbage + state + position + garbage
    }()

    static func started() -> CompanionStateMachine {
        var machine = CompanionStateMachine()
        _ = machine.start(now: at(1))
        return machine
    }

    @Test("frames split at every byte boundary reassemble; the garbage between them is skipped and counted")
    func framesSplitAtEveryBoundaryReassemble() {
        for cut in 0...Self.stream.count {
            var machine = Self.started()
            _ = machine.streamBytes(Array(Self.stream[..<cut]), now: Self.at(1.1))
            _ = machine.streamBytes(Array(Self.stream[cut...]), now: Self.at(1.2))
            #expect(machine.counters.frames == 3, "cut at \(cut)")
            #expect(machine.counters.skippedBytes == 3 * Self.garbage.count && machine.counters.errors == 0,
                    "cut at \(cut): \(machine.counters)")
            #expect(machine.linkStatus(now: Self.at(1.2)).connected, "cut at \(cut)")
        }
        var byteByByte = Self.started()
        for byte in Self.stream { _ = byteByByte.streamBytes([byte], now: Self.at(1.1)) }
        #expect(byteByByte.counters.frames == 3)
        // Read as datagrams (UDP's rule: a datagram ends its frames) the cut frames would be lost: the stream
        // entry is what a serial port needs.
        var asDatagrams = Self.started()
        _ = asDatagrams.datagram(Array(Self.stream[..<20]), now: Self.at(1.1))
        _ = asDatagrams.datagram(Array(Self.stream[20...]), now: Self.at(1.1))
        #expect(asDatagrams.counters.frames < 3)
    }

    @Test("the transport lost: the link status says not connected at once, not 3 s later")
    func transportLostIsNotConnectedAtOnce() {
        var machine = Self.started()
        _ = machine.streamBytes(Self.stream, now: Self.at(1.1))
        #expect(machine.linkStatus(now: Self.at(1.2)).connected)
        let actions = machine.transportLost(now: Self.at(1.2))
        let published = actions.compactMap { if case .publishLinkStatus(let s) = $0 { s } else { nil } }
        #expect(published.last?.connected == false && published.last?.reason == .navdataLost)
        // Nothing it says afterwards arms anything: no frame goes out but setpoints and heartbeats.
        #expect(!machine.linkStatus(now: Self.at(1.3)).connected)
    }

    @Test("the baud table: the standard termios rates, nothing else; the suggestion names the usual others")
    func baudTable() {
        for baud in [9600, 19200, 38400, 57600, 115200, 230400, 460800, 921600, 1_500_000, 2_000_000, 3_000_000] {
            #expect(SerialBaud.speed(baud) != nil, "\(baud)")
        }
        for baud in [0, -9600, 9601, 56000, 100_000, 4_000_001] { #expect(SerialBaud.speed(baud) == nil, "\(baud)") }
        #expect(SerialBaud.rates == SerialBaud.rates.sorted() && SerialBaud.rates.first == 9600)
        #expect(SerialBaud.suggestion(excluding: 57600) == "921600, 115200 or 460800")
        #expect(SerialBaud.suggestion(excluding: 921600) == "57600, 115200 or 460800")
        #expect(SerialBaud.suggestion(excluding: 9600) == "921600, 57600, 115200 or 460800")
    }

    static func texts(_ actions: [CompanionAction]) -> [String] {
        actions.compactMap { if case .log(_, let text) = $0 { text } else { nil } }
    }

    @Test("no valid frame within 5 s of opening: one warning naming device and baud, suggesting the usual rates")
    func noFrameRule() {
        var watch = SerialLinkWatch(device: "/dev/ttyUSB0", baud: 57600, openedAt: Self.at(10))
        _ = watch.received(bytes: 300, frames: 0, now: Self.at(12))
        #expect(watch.check(now: Self.at(14.999)).isEmpty)
        let warning = Self.texts(watch.check(now: Self.at(15)))
        #expect(warning.count == 1)
        #expect(warning.first?.hasPrefix("no MAVLink at 57600 baud on /dev/ttyUSB0 within 5 s: 300 bytes, none a "
                                         + "valid frame (a wrong baud rate?) — try 921600, 115200 or 460800") == true,
                "\(warning)")
        #expect(watch.check(now: Self.at(30)).isEmpty, "warned once")
        #expect(Self.texts(watch.received(bytes: 40, frames: 1, now: Self.at(31)))
                == ["MAVLink on /dev/ttyUSB0 at 57600 baud after all"])

        var silent = SerialLinkWatch(device: "/dev/ttyAMA0", baud: 921600, openedAt: Self.at(0))
        let nothing = Self.texts(silent.check(now: Self.at(5)))
        #expect(nothing.first?.contains("nothing received — check the wiring") == true, "\(nothing)")
        #expect(nothing.first?.contains("try 57600, 115200 or 460800") == true, "\(nothing)")

        var fine = SerialLinkWatch(device: "/dev/ttyAMA0", baud: 921600, openedAt: Self.at(0))
        _ = fine.received(bytes: 17, frames: 1, now: Self.at(4.9))
        #expect(fine.check(now: Self.at(60)).isEmpty)
    }

    @Test("a vanished device: logged once, opened again every second, logged once when back; the rule starts over")
    func reopenSchedule() {
        var watch = SerialLinkWatch(device: "/dev/serial0", baud: 921600, openedAt: Self.at(0))
        _ = watch.received(bytes: 17, frames: 1, now: Self.at(1))
        let gone = Self.texts(watch.lost("Input/output error", now: Self.at(100)))
        #expect(gone.count == 1 && gone[0].hasPrefix("serial device /dev/serial0 gone (Input/output error)"))
        #expect(watch.lost("again", now: Self.at(100.5)).isEmpty)
        #expect(!watch.reopenDue(now: Self.at(100.999)))
        #expect(watch.reopenDue(now: Self.at(101)))
        watch.reopenFailed(now: Self.at(101))
        #expect(!watch.reopenDue(now: Self.at(101.5)))
        #expect(watch.reopenDue(now: Self.at(102)))
        watch.reopenFailed(now: Self.at(102))
        let back = Self.texts(watch.reopened(now: Self.at(103)))
        #expect(back == ["serial device /dev/serial0 is back (opened again after 3 attempts)"])
        #expect(watch.reopened(now: Self.at(103.1)).isEmpty)
        #expect(watch.check(now: Self.at(107.9)).isEmpty)
        #expect(Self.texts(watch.check(now: Self.at(108))).count == 1, "the rule starts over at the reopening")
    }
}

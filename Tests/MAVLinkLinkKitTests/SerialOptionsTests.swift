import ArgumentParser
import DatagramIO
import NetworkEndpoint
import Testing
@testable import MAVLinkLinkKit

/// `--serial`, `--baud`, `--flow-control`, `--listen` and their environment (QUAD_SERIAL, QUAD_BAUD,
/// QUAD_FLOW_CONTROL, QUAD_MAVLINK_LISTEN): flag > environment > default, one transport.
@Suite("mavlink-link transport options")
struct SerialOptionsTests {
    static func choice(_ arguments: [String], _ environment: [String: String] = [:]) throws -> LinkTransportChoice {
        try MAVLinkLinkCommand.parse(arguments).transport { environment[$0] }
    }

    static func message(_ arguments: [String], _ environment: [String: String] = [:]) -> String {
        do {
            _ = try choice(arguments, environment)
            return "accepted"
        } catch {
            return MAVLinkLinkCommand.message(for: error)
        }
    }

    @Test func neitherIsUDPOnTheDefaultPort() throws {
        #expect(try Self.choice([]) == .udp(UDPEndpoint(dottedQuad: "0.0.0.0", port: 14540)!))
        #expect(try Self.choice([], ["QUAD_MAVLINK_LISTEN": "127.0.0.1:14541"])
                == .udp(UDPEndpoint(dottedQuad: "127.0.0.1", port: 14541)!))
    }

    @Test func serialDefaultsTo921600WithoutFlowControl() throws {
        #expect(try Self.choice(["--serial", "/dev/ttyAMA0"])
                == .serial(SerialSettings(device: "/dev/ttyAMA0", baud: 921600, flowControl: false)))
        #expect(try Self.choice(["--serial", "/dev/ttyUSB0", "--baud", "57600", "--flow-control"])
                == .serial(SerialSettings(device: "/dev/ttyUSB0", baud: 57600, flowControl: true)))
    }

    @Test func theEnvironmentChoosesSerialAndAFlagOverridesIt() throws {
        let env = ["QUAD_SERIAL": "/dev/serial0", "QUAD_BAUD": "460800", "QUAD_FLOW_CONTROL": "1"]
        #expect(try Self.choice([], env)
                == .serial(SerialSettings(device: "/dev/serial0", baud: 460800, flowControl: true)))
        // (Resolved directly: parsing alone validates against this process's own environment.)
        #expect(try LinkTransportChoice.resolve(.init(baud: 115200), environment: { env[$0] })
                == .serial(SerialSettings(device: "/dev/serial0", baud: 115200, flowControl: true)))
        #expect(try Self.choice(["--listen", "127.0.0.1:14540"], env)
                == .udp(UDPEndpoint(dottedQuad: "127.0.0.1", port: 14540)!))
    }

    @Test func usageErrorsNameWhatIsWrong() {
        #expect(Self.message(["--serial", "/dev/ttyAMA0", "--listen", "0.0.0.0:14540"])
                .contains("--listen and --serial"))
        #expect(Self.message([], ["QUAD_SERIAL": "/dev/ttyAMA0", "QUAD_MAVLINK_LISTEN": "0.0.0.0:14540"])
                .contains("QUAD_MAVLINK_LISTEN and QUAD_SERIAL"))
        #expect(Self.message(["--serial", "/dev/ttyAMA0", "--baud", "56000"]).contains("--baud 56000"))
        #expect(Self.message(["--serial", "/dev/ttyAMA0"], ["QUAD_BAUD": "fast"]).contains("QUAD_BAUD 'fast'"))
        #expect(Self.message(["--serial", "/dev/ttyAMA0"], ["QUAD_FLOW_CONTROL": "yes"]).contains("QUAD_FLOW_CONTROL"))
        #expect(Self.message(["--baud", "57600"]).contains("give --serial"))
        #expect(Self.message(["--serial", "ttyAMA0"]).contains("a device path"))
        #expect(Self.message(["--listen", "14540"]).contains("--listen '14540'"))
        // Through the parser too (its validate): exit 64.
        #expect(MAVLinkLinkCommand.exitCode(for: ValidationError("x")) == .validationFailure)
        #expect(throws: (any Error).self) { try MAVLinkLinkCommand.parse(["--serial", "/dev/x", "--listen", "h:1"]) }
    }

    @Test("a serial port that cannot be opened at the start: the sysexits code the house rule gives it")
    func exitCodes() {
        #expect(SerialOpenFailure.missing(device: "/dev/x").exitCode.rawValue == 66)
        #expect(SerialOpenFailure.busy(device: "/dev/x", holder: nil).exitCode.rawValue == 69)
        #expect(SerialOpenFailure.permissionDenied(device: "/dev/x").exitCode.rawValue == 77)
        #expect(SerialOpenFailure.notATerminal(device: "/dev/null", what: "x").exitCode.rawValue == 78)
    }
}

import Foundation
import Testing

/// Issue 35 item 2: the board services as built for the board (`make board`: aarch64, release, Swift 6.0.3) fly
/// under qemu-aarch64-static against the host's mosquitto and drone-sim: take off, a 40 m leg, arrival within 2 m by
/// drone-sim's ground truth, `return`, land within 2 m of home. Only `make board-flight` runs it: it points
/// QUAD_BOARD_BIN_DIR at those executables and QUAD_BOARD_RUNNER at qemu with the arm64 root (FlightStack starts
/// the board services through TestEnvironment.serviceCommand); without them the suite is disabled.
@Suite("Board services under emulation", .offPool, .serialized,
       .enabled(if: TestEnvironment.boardBinDir != nil && TestEnvironment.available("mosquitto", "mosquitto_pub")))
struct BoardEmulationTests {
    /// ELF e_machine of AArch64: the services this suite flies are the board's, not the host's.
    static let aarch64Machine: UInt16 = 183

    @Test("the board services in QUAD_BOARD_BIN_DIR are aarch64 ELF executables")
    func executablesAreAArch64() throws {
        let dir = try #require(TestEnvironment.boardBinDir)
        for name in TestEnvironment.boardServices.sorted() {
            let header = try FileHandle(forReadingFrom: dir.appendingPathComponent(name)).read(upToCount: 20)
            let bytes = try #require(header.map(Array.init), "\(name): unreadable")
            #expect(bytes.count == 20 && bytes[0...3] == [0x7F, 0x45, 0x4C, 0x46], "\(name): not ELF")
            #expect(bytes.count == 20 && UInt16(bytes[18]) | UInt16(bytes[19]) << 8 == Self.aarch64Machine,
                    "\(name): not aarch64")
        }
    }

    @Test("aarch64 services: takeoff, 40 m target, arrive within 2 m, return, land",
          arguments: [FlightStack.Link.ardrone, .mavlink])
    func flyUnderEmulation(link: FlightStack.Link) async throws {
        let flight = try await ReturnFlight.fly(simArguments: [], legM: 40, link: link)
        print("board under emulation (\(link.service)): \(flight)")
        #expect(flight.arrivedWithinM < 2,
                "hovered up to \(flight.arrivedWithinM) m from the target after arrival\n\(flight.logs)")
        #expect(flight.landedFromHomeM < 2, "landed \(flight.landedFromHomeM) m from home\n\(flight.logs)")
    }
}

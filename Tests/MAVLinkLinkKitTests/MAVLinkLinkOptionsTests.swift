import MAVLinkCompanion
import Testing
@testable import MAVLinkLinkKit

/// mavlink-link's own options do what `--help` says.
@Suite("mavlink-link options")
struct MAVLinkLinkOptionsTests {
    @Test func orphanReturnAfterSetsTheSilenceBeforeTheAutopilotsReturn() throws {
        #expect(try MAVLinkLinkCommand.parse([]).timing.orphanReturn == .seconds(30))
        #expect(try MAVLinkLinkCommand.parse(["--orphan-return-after", "45s"]).timing.orphanReturn == .seconds(45))
        #expect(try MAVLinkLinkCommand.parse(["--orphan-return-after", "0"]).timing.orphanReturn == .zero)
        for bad in ["1s", "-5", "soon"] {
            #expect(throws: (any Error).self, "--orphan-return-after \(bad)") {
                try MAVLinkLinkCommand.parse(["--orphan-return-after", bad])
            }
        }
    }
}

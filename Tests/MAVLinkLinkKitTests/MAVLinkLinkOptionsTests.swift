import MAVLinkCompanion
import Testing
@testable import MAVLinkLinkKit

/// mavlink-link's own options do what `--help` says.
@Suite("mavlink-link options")
struct MAVLinkLinkOptionsTests {
    @Test func orphanReturnAfterSetsTheSilenceBeforeTheAutopilotsReturn() throws {
        #expect(try MAVLinkLink.parse([]).timing.orphanReturnUs == 30_000_000)
        #expect(try MAVLinkLink.parse(["--orphan-return-after", "45s"]).timing.orphanReturnUs == 45_000_000)
        #expect(try MAVLinkLink.parse(["--orphan-return-after", "0"]).timing.orphanReturnUs == 0)
        for bad in ["1s", "-5", "soon"] {
            #expect(throws: (any Error).self, "--orphan-return-after \(bad)") {
                try MAVLinkLink.parse(["--orphan-return-after", bad])
            }
        }
    }
}

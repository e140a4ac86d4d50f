#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import QuadProtocol
import Testing

/// One table of reasons (`Reason.table`): PROTOCOL.md's list and the map page's (web/map/vocabulary.js,
/// MapVocabularyTests) are generated from it and must equal what it generates now. After changing the table, rewrite
/// both with `QUAD_WRITE_REASON_TABLES=1 swift test --skip-build --filter 'ReasonTableTests|MapVocabularyTests'`.
@Suite struct ReasonTableTests {
    static let protocolPath = "PROTOCOL.md"
    static let protocolBegin = "<!-- reasons: generated from Reason.table by ReasonTableTests; do not edit -->\n"
    static let protocolEnd = "<!-- reasons: end -->\n"

    @Test func everyRowHasItsOwnCaseAndCodeAndDecodesBack() {
        let codes = Reason.table.map(\.code)
        #expect(Set(codes).count == codes.count, "a code is listed twice")
        #expect(Set(Reason.table.map(\.reason)).count == codes.count, "a case is listed twice")
        for row in Reason.table {
            #expect(Reason(code: row.code) == row.reason, "\(row.code)")
            #expect(row.reason.code == row.code)
            #expect(row.code.utf8.count <= 64, "\(row.code): longer than the wire allows")
            #expect(row.code.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" },
                    "\(row.code): not kebab-case")
            #expect(!row.text.isEmpty && !row.text.contains("\""), "\(row.code): text")
            // A refusal or a failure always says which request it answers, except the inputs that are no request.
            if row.outcome == .accepted || row.outcome == .failed { #expect(row.subject != nil, "\(row.code)") }
            if row.outcome == .failsafe || row.outcome == .event { #expect(row.subject == nil, "\(row.code)") }
        }
    }

    @Test func aCodeThisVersionDoesNotKnowIsKeptAsItCame() throws {
        let reason = Reason(code: "future-failsafe")
        #expect(reason == .unknown("future-failsafe"))
        #expect(reason.code == "future-failsafe" && reason.description == "future-failsafe")
        #expect(!reason.isRefusal && !reason.isFailure && reason.subject == nil)
        #expect(!reason.answers(.command(.takeoff)) && !reason.answers(.target) && !reason.answers(.claim))
        let state = ControllerState(sequence: 1, timestampUs: 2, activity: .hovering, reason: reason)
        let decoded = try ControllerState(decoding: state.encoded())
        #expect(decoded.reason == .unknown("future-failsafe"))
        let (again, original) = (try decoded.encoded(), try state.encoded())
        #expect(again == original)
        #expect(Reason(code: "") == .unspecified && Reason.unspecified.code.isEmpty)
    }

    /// What the ground tools ask of a reason, for the composite ones that were read back by prefix and suffix.
    @Test func theGroundToolsPropertiesOfTheCompositeReasons() {
        #expect(Reason.notPilot.answers(.command(.land)) && Reason.notPilot.answers(.target)
                && Reason.notPilot.answers(.claim))
        #expect(Reason.commandForPreviousRun.answers(.command(.hover)))
        #expect(!Reason.commandForPreviousRun.answers(.target))
        let previousRun: [Reason] = [.commandForPreviousRun, .targetForPreviousRun, .claimForPreviousRun]
        #expect(previousRun.allSatisfy { $0.isForPreviousRun })
        #expect(Reason.table.filter { $0.reason.isForPreviousRun }.allSatisfy { $0.outcome == .refused })
        #expect(Reason.takeoffRefusedBatteryLow.answers(.command(.takeoff))
                && !Reason.takeoffRefusedBatteryLow.answers(.command(.land)))
        #expect(Reason.returnRefusedNoHome.answers(.command(.returnHome)))
        #expect(Reason.takeoffTimeout.isFailure && Reason.takeoffTimeout.answers(.command(.takeoff)))
        #expect(Reason.pilotLostReturn.isFailsafe && Reason.groundLinkLostReturn.isFailsafe)
        #expect(Reason.claimRefused.answers(.claim) && !Reason.claimRefused.answers(.command(.takeoff)))
    }

    @Test func protocolListsEveryReason() throws {
        var document = try FixtureFile.repositoryText(Self.protocolPath)
        let generated = Self.markdownTable()
        guard let begin = document.firstRange(of: Self.protocolBegin),
              let end = document[begin.upperBound...].firstRange(of: Self.protocolEnd) else {
            Issue.record("PROTOCOL.md has no generated reasons table (its markers)")
            return
        }
        if Self.rewriting {
            document.replaceSubrange(begin.upperBound..<end.lowerBound, with: generated)
            try FixtureFile.writeRepositoryText(Self.protocolPath, document)
            return
        }
        #expect(String(document[begin.upperBound..<end.lowerBound]) == generated,
                "PROTOCOL.md's reasons differ from Reason.table: rewrite them (see this suite)")
    }

    static var rewriting: Bool { getenv("QUAD_WRITE_REASON_TABLES").map { String(cString: $0) == "1" } ?? false }

    /// PROTOCOL.md's list, between its markers.
    static func markdownTable() -> String {
        var text = "\n| code | outcome | answers | meaning |\n| --- | --- | --- | --- |\n"
        for row in Reason.table {
            let code = row.code.isEmpty ? "(empty)" : "`\(row.code)`"
            text += "| \(code) | \(row.outcome.rawValue) | \(row.subject?.word ?? "") | \(row.text) |\n"
        }
        return text + "\n"
    }
}

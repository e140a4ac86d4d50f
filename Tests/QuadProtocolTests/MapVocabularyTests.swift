import QuadProtocol
import Testing

/// The map page's words (web/map/vocabulary.js) are generated from the Swift ones: `Reason.table`, and each
/// activity's and link reason's wire value, case name and `label` (the words `location-broadcaster status` prints).
/// The file must equal what this generates now; after changing any of them, rewrite it with
/// `QUAD_WRITE_REASON_TABLES=1 swift test --skip-build --filter MapVocabularyTests`.
@Suite struct MapVocabularyTests {
    static let path = "web/map/vocabulary.js"

    @Test func theMapPagesVocabularyIsGeneratedFromTheSwiftTables() throws {
        let generated = Self.javaScript()
        if ReasonTableTests.rewriting { try FixtureFile.writeRepositoryText(Self.path, generated) }
        let onDisk = try FixtureFile.repositoryText(Self.path)
        #expect(onDisk == generated, "\(Self.path) differs from the Swift tables: rewrite it (see this suite)")
    }

    @Test func everyLabelIsSaidAndTellsItsValueApart() {
        let activities = ControllerState.Activity.allCases.map(\.label)
        let links = LinkStatus.Reason.allCases.map(\.label)
        for label in activities + links { #expect(!label.isEmpty && !label.contains("\""), "\(label)") }
        #expect(Set(activities).count == activities.count && Set(links).count == links.count)
        #expect(ControllerState.Activity.unknown.label == "unknown (no navdata yet)")
        #expect(ControllerState.Activity.takingOff.label == "taking off" && LinkStatus.Reason.ok.label == "ok")
    }

    /// `'name': [wire value, "label"],` for each case of a wire enum, in the order of its cases.
    static func rows<E: RawRepresentable>(_ cases: [E], label: (E) -> String) -> String
    where E.RawValue == UInt8 {
        cases.map { "    '\($0)': [\($0.rawValue), \"\(label($0))\"],\n" }.joined()
    }

    static func reasonRows() -> String {
        var rows = ""
        for row in Reason.table {
            let head = "    '\(row.code)': ['\(row.outcome.rawValue)', '\(row.subject?.word ?? "")',"
            let text = "\"\(row.text)\"],\n"
            rows += head.count + 1 + text.count - 1 <= 120 ? head + " " + text : head + "\n      " + text
        }
        return rows
    }

    /// web/map/vocabulary.js: the tables as JavaScript objects, and the questions app.js and quadproto.js ask of them.
    static func javaScript() -> String {
        """
        // The page's words for what the services send: GENERATED from the Swift tables in Shared/Leaf/QuadProtocol
        // (Reason.table; ControllerState.Activity and LinkStatus.Reason with their `label`, Labels.swift) by
        // Tests/QuadProtocolTests/MapVocabularyTests.swift, which checks that this file is what it generates. Do not
        // edit: change the Swift tables, then rewrite this file with
        // QUAD_WRITE_REASON_TABLES=1 swift test --skip-build --filter MapVocabularyTests
        (function (root) {
          'use strict';

          // The controller's reasons (ControllerState.reason). code: [outcome, answers, text]. outcome: accepted,
          // refused, failed (taken, then given up), failsafe, event. answers: the request it answers: a command's word,
          // command (every command), target, claim (claim or release), any (every request), '' (none).
          const REASONS = {
        \(reasonRows())  };

          // The controller's activity (ControllerState.Activity): name: [wire value, label].
          const ACTIVITIES = {
        \(rows(ControllerState.Activity.allCases, label: \.label))  };

          // The vehicle link's health (LinkStatus.Reason): name: [wire value, label].
          const LINK_REASONS = {
        \(rows(LinkStatus.Reason.allCases, label: \.label))  };

          const own = (table, key) => typeof key === 'string' && Object.prototype.hasOwnProperty.call(table, key);
          const row = (code) => (own(REASONS, code) ? REASONS[code] : null);
          const outcome = (code) => { const r = row(code); return r ? r[0] : 'event'; };
          // Plain words; a code unknown to this version (a newer controller) is shown as it came.
          const text = (code) => {
            const r = row(code);
            return r ? r[2] : "reason '" + code + "' (unknown to this version)";
          };
          const isRefusal = (code) => outcome(code) === 'refused';
          const isFailure = (code) => outcome(code) === 'failed';
          const isFailsafe = (code) => outcome(code) === 'failsafe';
          // Whether the reason answers `what`: a command's word, 'target', 'claim' or 'release' (Reason.answers).
          function answers(code, what) {
            const r = row(code);
            const subject = r ? r[1] : '';
            const request = what === 'release' ? 'claim' : what;
            if (subject === '' || !request) return false;
            if (subject === 'any' || subject === request) return true;
            return subject === 'command' && request !== 'target' && request !== 'claim';
          }
          // An activity's or a link reason's label, by the name the codec gives it; any other value as it came.
          const activityText = (name) => (own(ACTIVITIES, name) ? ACTIVITIES[name][1] : String(name));
          const linkReasonText = (name) => (own(LINK_REASONS, name) ? LINK_REASONS[name][1] : String(name));
          // A table's wire values for the codec's enums (quadproto.js): { value: name }.
          const wireValues = (table) => Object.fromEntries(Object.keys(table).map((name) => [table[name][0], name]));

          const api = { REASONS, ACTIVITIES, LINK_REASONS, known: (code) => row(code) !== null, outcome, text,
            isRefusal, isFailure, isFailsafe, answers, activityText, linkReasonText, wireValues };
          if (typeof module !== 'undefined' && module.exports) module.exports = api;
          else root.QuadVocabulary = api;
        })(typeof self !== 'undefined' ? self : this);

        """
    }
}

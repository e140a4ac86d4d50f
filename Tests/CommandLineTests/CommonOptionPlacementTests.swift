import CommandLineSupport
import Testing

/// The argument list itself: which words move in front of the subcommand's options, and which lines stay as typed.
@Suite("common options before the subcommand: the normaliser")
struct CommonOptionPlacementTests {
    let placement = CommonOptionPlacement(optionNames: ["--broker", "--drone", "--command-ttl"],
                                          subcommands: ["takeoff", "target", "status"])

    func normalised(_ arguments: [String]) throws -> [String] { try placement.normalised(arguments) }

    @Test("options before the subcommand move to just after its name, in their order, both spellings")
    func moves() throws {
        #expect(try normalised(["--broker", "h:1", "takeoff"]) == ["takeoff", "--broker", "h:1"])
        #expect(try normalised(["--broker=h:1", "--drone", "d2", "takeoff", "--timeout", "3"])
                == ["takeoff", "--broker=h:1", "--drone", "d2", "--timeout", "3"])
        #expect(try normalised(["--drone", "d2", "target", "-33.8", "-70.6", "--broker", "h"])
                == ["target", "--drone", "d2", "-33.8", "-70.6", "--broker", "h"])
    }

    @Test("the word after an option's name is its value, whatever it looks like",
          arguments: ["-x", "-90", "--", "target", "--broker", "", "status"])
    func valueLooksLikeSomethingElse(_ value: String) throws {
        #expect(try normalised(["--drone", value, "takeoff"]) == ["takeoff", "--drone", value])
        #expect(try normalised(["--command-ttl=\(value)", "takeoff"]) == ["takeoff", "--command-ttl=\(value)"])
    }

    @Test("lines that stay as typed: nothing to move, no subcommand after the options, or something else first",
          arguments: [
              [], ["takeoff", "--broker", "h"], ["--broker", "h"], ["--broker"], ["--broker", "h", "--drone"],
              ["--help"], ["--broker", "h", "--help"], ["--broker", "h", "help", "takeoff"], ["help", "takeoff"],
              ["--", "--broker", "h", "takeoff"], ["--broker", "h", "--", "takeoff"],
              ["--timeout", "3", "takeoff"], ["--broker", "h", "--timeout", "3", "takeoff"],
              ["--broker", "h", "tagret"], ["-b", "h", "takeoff"], ["--brokers=h", "takeoff"],
              ["--drone", "takeoff"],
          ])
    func unchanged(_ arguments: [String]) throws {
        #expect(try normalised(arguments) == arguments)
    }

    @Test("a subcommand name given as an option's value is not the subcommand")
    func subcommandAsValue() throws {
        #expect(try normalised(["--drone", "status", "takeoff"]) == ["takeoff", "--drone", "status"])
        #expect(try normalised(["--drone", "status"]) == ["--drone", "status"])
    }

    @Test("one option on both sides: the same value is fine, different values are refused by name")
    func bothSides() throws {
        #expect(try normalised(["--broker", "h", "takeoff", "--broker=h"])
                == ["takeoff", "--broker", "h", "--broker=h"])
        #expect(throws: CommonOptionConflict(option: "--broker", subcommand: "takeoff", before: "a", after: "b")) {
            try normalised(["--broker", "a", "takeoff", "--broker", "b"])
        }
        #expect(throws: CommonOptionConflict(option: "--drone", subcommand: "target", before: "-x", after: "y")) {
            try normalised(["--drone=-x", "target", "1", "2", "--drone=y"])
        }
        let conflict = CommonOptionConflict(option: "--broker", subcommand: "takeoff", before: "a", after: "b\u{1B}[2J")
        #expect(conflict.description == "--broker given before 'takeoff' as 'a' and after it as 'b?[2J': give it once")
    }

    @Test("after a -- terminator the words are arguments, not options")
    func terminatorAfterSubcommand() throws {
        #expect(try normalised(["--broker", "a", "target", "--", "--broker", "b"])
                == ["target", "--broker", "a", "--", "--broker", "b"])
    }

    @Test("the word where a subcommand is expected, after the leading options")
    func afterLeadingOptions() {
        #expect(Array(placement.afterLeadingOptions(["--broker", "h", "--drone=d", "tagret", "x"])) == ["tagret", "x"])
        #expect(Array(placement.afterLeadingOptions(["tagret"])) == ["tagret"])
        #expect(placement.afterLeadingOptions(["--broker", "h"]).isEmpty)
        #expect(Array(placement.afterLeadingOptions(["--broker"])) == ["--broker"])
    }

    @Test("every line of up to 4 awkward words: no crash, and the result is a reordering of the input")
    func permutation() throws {
        let words = ["--broker", "--drone=", "--drone", "takeoff", "status", "--", "-x", "-90", "help", "=", "--="]
        var lines: [[String]] = [[]]
        var longest: [[String]] = [[]]
        for _ in 1...4 {
            longest = longest.flatMap { line in words.map { line + [$0] } }
            lines += longest
        }
        for arguments in lines {
            guard let result = try? normalised(arguments) else { continue }
            #expect(result.sorted() == arguments.sorted(), "\(arguments)")
            _ = placement.afterLeadingOptions(arguments)
        }
        #expect(lines.count == 1 + 11 + 121 + 1331 + 14641)
    }
}

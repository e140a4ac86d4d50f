import ArgumentParser
import Testing
@testable import NavigatorKit

@Suite("navigator options")
struct NavigatorOptionTests {
    @Test("solve --from/--to take southern coordinates; --heading and --mount-offset negative angles")
    func solveNegative() throws {
        for arguments in [
            ["--from", "-33.86,151.2", "--to", "-33.87,151.21", "--heading", "-45", "--mount-offset", "-90"],
            ["--from=-33.86,151.2", "--to=-33.87,151.21", "--heading=-45", "--mount-offset=-90"],
        ] {
            let solve = try NavigatorCommand.Solve.parse(arguments)
            #expect(solve.from == "-33.86,151.2")
            #expect(solve.to == "-33.87,151.21")
            #expect(solve.heading == -45)
            #expect(solve.mountOffset == -90)
        }
    }

    @Test("run --mount-offset -90, the article's own value", arguments: bothSpellings("--mount-offset", "-90"))
    func runMountOffset(_ arguments: [String]) throws {
        #expect(try NavigatorCommand.Run.parse(arguments).mountOffset == -90)
    }

    @Test("--mount-offset is still range-checked after a leading '-'")
    func mountOffsetRange() {
        let message = parseError(NavigatorCommand.Run.self, ["--mount-offset", "-400"]) ?? ""
        #expect(message.contains("--mount-offset must be a finite angle"), "\(message)")
    }

    @Test("--help shows no Swift value dumps")
    func help() {
        for sub in [NavigatorCommand.Run.self, NavigatorCommand.Solve.self] as [ParsableCommand.Type] {
            let help = NavigatorCommand.helpMessage(for: sub, columns: 200)
            for value in helpDefaults(help) { #expect(!value.contains("("), "\(value)") }
        }
    }
}

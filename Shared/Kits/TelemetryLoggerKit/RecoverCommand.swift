import ArgumentParser
import CommandLineSupport
import FlightLog
import QuadService

struct RecoverCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "recover",
        abstract: "Check a log: count the good records and list every problem (torn tail, corrupt ranges).",
        discussion: """
            Exits 0 when every file is whole; 65 when any could be read but has damage (a torn tail, a corrupt \
            range); 1 when one cannot be read or is no flight log at all (wrong magic and no record found by scanning).
            """,
        aliases: ["check"])

    @Argument(help: "The .qlog file(s).")
    var logs: [String]

    func run() throws {
        var damaged = false
        for path in logs {
            let log = try LoadedLog(path: path)
            var text = ""
            if let header = log.header {
                let created = UTCDateTime(unixUs: header.createdUs).iso8601
                text += "\(path): format \(header.formatVersion), created \(created)"
                text += header.note.isEmpty ? "\n" : ", note: \(header.note)\n"
            }
            let problems = log.problemLines
            damaged = damaged || !problems.isEmpty
            text += "\(path): \(log.records.count) good records, \(problems.count) problem(s), \(log.fileBytes) bytes\n"
            for line in problems { text += "  \(line)\n" }
            try FileBytes.writeStandardOutput(text)
        }
        if damaged { throw ExitStatus.completedWithDamage }
    }
}

import Foundation
import ProcessSupport
import Testing

/// What a child started by the tests (or the bench) inherits from its parent.
@Suite("ChildProcess", .offPool)
struct ChildProcessTests {
    /// A child that outlives its parent must not hold the parent's pipes: a test runner whose output pipe was held by
    /// brokers orphaned by a dead test process waited for them for over an hour.
    @Test("a child holds its stdin, its log and nothing else of the parent's: not a pipe the parent left inheritable")
    func childInheritsNoOtherDescriptors() async throws {
        var fds: [Int32] = [0, 0]
        try #require(pipe(&fds) == 0)  // pipe(), not pipe2(O_CLOEXEC): inheritable, as a runner's output pipe is
        defer { fds.forEach { close($0) } }
        let directory = try TestEnvironment.temporaryDirectory("child-fds")
        defer { TestEnvironment.removeTemporaryDirectory(directory) }
        // The shell lists its open descriptors; `exec` keeps the list to the shell's own (no `ls` in between).
        let child = try ChildProcess(executable: "/bin/sh", arguments: ["-c", "cd /proc/$$/fd && echo *"],
                                     name: "fds", logDirectory: directory)
        let code = try await onThread { child.waitForExit(timeout: .seconds(60)) }
        #expect(code == 0, "\(child.output())")
        let open = Set(child.output().split(whereSeparator: { $0 == " " || $0 == "\n" }).compactMap { Int32($0) })
        #expect(open.isSuperset(of: [0, 1, 2]), "\(child.output())")
        #expect(open.isDisjoint(with: fds), "the parent's pipe \(fds) is open in the child: \(child.output())")
    }
}

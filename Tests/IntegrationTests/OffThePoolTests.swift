import Foundation
import Testing

/// The integration suites' bodies, and their suite's `init`, run on the test executor's own threads, not on the
/// cooperative pool they would otherwise block.
@Suite("integration test bodies run off the cooperative pool", .offThePool)
struct OffThePoolTests {
    let initOnTestExecutor: Bool

    init() { initOnTestExecutor = BlockingTestExecutor.isCurrent }

    @Test("a test body, its child tasks and its suite's init run on test-body threads")
    func bodyRunsOnTheTestExecutor() async throws {
        #expect(initOnTestExecutor)
        #expect(BlockingTestExecutor.isCurrent)
        try await Task.sleep(for: .milliseconds(10))
        #expect(BlockingTestExecutor.isCurrent, "back on the test executor after a suspension")
        async let child = BlockingTestExecutor.isCurrent
        #expect(await child)
        // Unstructured tasks (fakes, recorders) stay on the cooperative pool that the blocking bodies leave free.
        #expect(await Task.detached { BlockingTestExecutor.isCurrent }.value == false)
    }
}

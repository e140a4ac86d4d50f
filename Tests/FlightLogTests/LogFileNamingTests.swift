import Clocks
import Testing
import FlightLog
import QuadProtocol

struct LogFileNamingTests {
    @Test func namesTheFileAfterDroneAndUTCStartTime() throws {
        let drone = try #require(DroneID(rawValue: "drone1"))
        // 2024-05-01T12:34:56.789Z
        let started = WallInstant(us: 1_714_566_896_789_000)
        #expect(LogFileNaming.fileName(drone: drone, started: started) == "drone1-20240501-123456.qlog")
        #expect(LogFileNaming.fileName(drone: drone, started: started, collisionIndex: 2)
            == "drone1-20240501-123456-2.qlog")
    }
}

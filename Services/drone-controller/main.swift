import DroneControllerKit
import QuadService

// The behaviour lives in DroneControllerKit (tested in Tests/DroneControllerKitTests); this file only starts it.
await DroneControllerCommand.launch()

import DroneSimKit

// The behaviour lives in DroneSimKit (tested in Tests/DroneSimKitTests); this file only starts it.
DroneSimCommand.main()

import DroneLinkKit
import QuadService

// The behaviour lives in DroneLinkKit (tested in Tests/DroneLinkKitTests); this file only starts it.
await DroneLinkCommand.launch()

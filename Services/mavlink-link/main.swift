import MAVLinkLinkKit
import QuadService

// The behaviour lives in MAVLinkLinkKit (tested in Tests/MAVLinkLinkKitTests); this file only starts it.
await MAVLinkLinkCommand.launch()

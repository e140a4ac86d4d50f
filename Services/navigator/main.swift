import NavigatorKit
import QuadService

// The behaviour lives in NavigatorKit (tested in Tests/NavigatorKitTests); this file only starts it.
await NavigatorCommand.launch()

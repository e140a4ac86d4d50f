import LocationBroadcasterKit
import QuadService

// Everything location-broadcaster does lives in Shared/LocationBroadcasterKit (Tests/LocationBroadcasterKitTests).
await LocationBroadcasterCommand.launch(commonOptions: LocationBroadcasterCommand.commonOptionNames)

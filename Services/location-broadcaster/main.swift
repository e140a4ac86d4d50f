import LocationBroadcasterKit
import QuadService

// Everything location-broadcaster does lives in Shared/Kits/LocationBroadcasterKit (Tests/LocationBroadcasterKitTests).
await LocationBroadcasterCommand.launch(commonOptions: LocationBroadcasterCommand.commonOptionNames)

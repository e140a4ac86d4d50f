import ArgumentParser
import DroneSimulation
import Navigation

/// `--home LAT,LON`.
struct HomeOption: ExpressibleByArgument {
    var point: GeoPoint

    init?(argument: String) {
        let parts = argument.split(separator: ",")
        guard parts.count == 2, let lat = Double(parts[0]), let lon = Double(parts[1]),
            (-90...90).contains(lat), (-180...180).contains(lon)
        else { return nil }
        point = GeoPoint(latitudeDeg: lat, longitudeDeg: lon)
    }
}

/// `--wind MPS,DIRDEG`: speed and the direction it blows FROM, degrees.
struct WindOption: ExpressibleByArgument {
    var wind: Wind

    init?(argument: String) {
        let parts = argument.split(separator: ",")
        guard parts.count == 2, let speed = Double(parts[0]), let from = Double(parts[1]),
            speed >= 0, speed.isFinite, from.isFinite
        else { return nil }
        wind = Wind(speedMps: speed, fromDeg: from)
    }
}

/// `--listen IP` as a dotted quad.
struct ListenOption: ExpressibleByArgument {
    var address: UInt32

    init?(argument: String) {
        guard let endpoint = UDPEndpoint(dottedQuad: argument, port: 0) else { return nil }
        address = endpoint.address
    }
}

extension NavdataGPS: NavdataOptionLayout {
    static let tag = NavdataTag.gps
    static let wireSize = 216

    init(payload reader: inout ByteReader) {
        self.init(latitudeDeg: reader.f64(), longitudeDeg: reader.f64())
        elevationM = reader.f64()
        hdop = reader.f64()
        dataAvailable = reader.i32()
        zeroValidated = reader.i32()
        waypointValidated = reader.i32()
        latitude0Deg = reader.f64()
        longitude0Deg = reader.f64()
        latitudeFusedDeg = reader.f64()
        longitudeFusedDeg = reader.f64()
        gpsState = reader.u32()
        trajectoryTerms = (0..<Self.trajectoryTermCount).map { _ in reader.f32() }
        vdop = reader.f64()
        pdop = reader.f64()
        speed = reader.f32()
        lastFrameTimestamp = reader.u32()
        degree = reader.f32()
        degreeMagnetic = reader.f32()
        ehpe = reader.f32()
        ehve = reader.f32()
        cn0 = reader.f32()
        satelliteCount = reader.u32()
        channels = (0..<Self.channelCount).map { _ in GPSChannel(satellite: reader.u8(), cn0: reader.u8()) }
        gpsPlugged = reader.i32()
        ephemerisStatus = reader.u32()
        velocityXTrajectory = reader.f32()
        velocityYTrajectory = reader.f32()
        firmwareStatus = reader.u32()
    }

    func writePayload(to writer: inout ByteWriter) {
        for value in [latitudeDeg, longitudeDeg, elevationM, hdop] {
            writer.f64(value)
        }
        writer.i32(dataAvailable)
        writer.i32(zeroValidated)
        writer.i32(waypointValidated)
        for value in [latitude0Deg, longitude0Deg, latitudeFusedDeg, longitudeFusedDeg] {
            writer.f64(value)
        }
        writer.u32(gpsState)
        for index in 0..<Self.trajectoryTermCount {
            writer.f32(index < trajectoryTerms.count ? trajectoryTerms[index] : 0)
        }
        writer.f64(vdop)
        writer.f64(pdop)
        writer.f32(speed)
        writer.u32(lastFrameTimestamp)
        for value in [degree, degreeMagnetic, ehpe, ehve, cn0] {
            writer.f32(value)
        }
        writer.u32(satelliteCount)
        for index in 0..<Self.channelCount {
            let channel = index < channels.count ? channels[index] : GPSChannel(satellite: 0, cn0: 0)
            writer.u8(channel.satellite)
            writer.u8(channel.cn0)
        }
        writer.i32(gpsPlugged)
        writer.u32(ephemerisStatus)
        writer.f32(velocityXTrajectory)
        writer.f32(velocityYTrajectory)
        writer.u32(firmwareStatus)
    }
}

// The bus's binary payloads (PROTOCOL.md, format 1.4) in plain JavaScript, for the live map and for node's test
// runner. decode() validates like the Swift decoder (header, then layout, then value ranges) and throws a
// WireError; encode() runs the same validation first, so it never produces what decode() rejects.
(function (root) {
  'use strict';

  const MAJOR = 1, MINOR = 4, HEADER = 17;
  // The activity's and the link reason's values come from the generated vocabulary (vocabulary.js, loaded first).
  const V = typeof module !== 'undefined' && module.exports ? require('./vocabulary.js') : root.QuadVocabulary;

  class WireError extends Error {
    constructor(code, detail) { super(code + (detail ? ': ' + detail : '')); this.code = code; }
  }

  // Value checks. Each returns an error detail or null.
  const finite = (v) => Number.isFinite(v) ? null : 'not finite';
  const range = (lo, hi, hiOpen) => (v) => finite(v) || ((v < lo || (hiOpen ? v >= hi : v > hi))
    ? `outside [${lo}, ${hi}${hiOpen ? ')' : ']'}` : null);
  const atLeast0 = (v) => finite(v) || (v < 0 ? 'negative' : null);
  const lat = range(-90, 90), lon = range(-180, 180), deg360 = range(0, 360, true), dir180 = range(-180, 180, true);
  const unit = range(-1, 1);

  // One table per message type: [name, kind, check or enum values or string limits, optional, since minor].
  // Optional fields are numbered by their order (presence bit 0 = the first optional field), or name their bit (a
  // number) when several share one. The presence byte is the first body byte, or sits just before the field named by
  // `presenceAt` when a later minor appended it (a minor may only append). A field appended by a later minor
  // ("since") is not read from an older payload: a plain one reads as 0 and is written as 0 when the message does not
  // give it; an optional one reads as absent (null).
  // The run ids (1.2): the controller's own in its state, the run a command, claim or target is addressed to
  // (0 = unaddressed).
  const RUN_ID = ['u32', null, false, 2];
  const TYPES = {
    1: { name: 'target', fields: [
      ['senderId', 'str8', [1, 64]], ['latitudeDeg', 'f64', lat], ['longitudeDeg', 'f64', lon],
      ['altitudeM', 'f32', atLeast0, true], ['ttlS', 'f32', atLeast0], ['controllerRunId', ...RUN_ID]] },
    2: { name: 'command', fields: [
      ['senderId', 'str8', [1, 64]],
      ['kind', 'enum', { 1: 'takeoff', 2: 'land', 3: 'hover', 4: 'emergency', 5: 'reset', 6: 'flat-trim',
        7: 'return' }],
      ['controllerRunId', ...RUN_ID]] },
    3: { name: 'navigationSolution', fields: [
      ['targetSequence', 'u32'], ['targetLatitudeDeg', 'f64', lat], ['targetLongitudeDeg', 'f64', lon],
      ['droneLatitudeDeg', 'f64', lat], ['droneLongitudeDeg', 'f64', lon], ['distanceM', 'f64', atLeast0],
      ['bearingDeg', 'f64', deg360], ['headingDeg', 'f64', deg360], ['directionDifferenceDeg', 'f64', dir180],
      ['positionAgeMs', 'u32'], ['headingAgeMs', 'u32'], ['targetAgeMs', 'u32']] },
    4: { name: 'flightCommand', fields: [
      ['refMode', 'enum', { 0: 'land', 1: 'fly', 2: 'emergencyCutoff', 3: 'emergencyRecover' }],
      ['flatTrim', 'bool'], ['progressive', 'bool'], ['rollFrac', 'f32', unit], ['pitchFrac', 'f32', unit],
      ['gazFrac', 'f32', unit], ['yawFrac', 'f32', unit],
      // 1.3: the takeoff this command asks for (0 = none).
      ['takeoffId', 'u32', null, false, 3]] },
    5: { name: 'droneState', fields: [
      ['navdataSequence', 'u32'], ['stateBits', 'u32'],
      ['controlState', 'enum', { 0: 'unknown', 1: 'initializing', 2: 'landed', 3: 'flying', 4: 'hovering', 5: 'test',
        6: 'takingOff', 7: 'goingToFix', 8: 'landing', 9: 'looping' }],
      ['controlMinorState', 'u16'], ['batteryPercent', 'u8', range(0, 100)], ['altitudeM', 'f32', finite],
      ['pitchDeg', 'f32', finite], ['rollDeg', 'f32', finite], ['yawDeg', 'f32', finite],
      ['velocityXMps', 'f32', finite], ['velocityYMps', 'f32', finite], ['velocityZMps', 'f32', finite],
      ['magnetoHeadingDeg', 'f32', deg360, true]] },
    6: { name: 'positionFix', fields: [
      ['latitudeDeg', 'f64', lat], ['longitudeDeg', 'f64', lon], ['altitudeM', 'f32', finite, true],
      ['headingDeg', 'f32', deg360, true], ['horizontalAccuracyM', 'f32', atLeast0, true], ['satellites', 'u8'],
      ['source', 'enum', { 1: 'droneGPS', 2: 'gpsd', 3: 'manual' }]] },
    7: { name: 'controllerState', fields: [
      ['activity', 'enum', V.wireValues(V.ACTIVITIES)],
      ['reason', 'str8', [0, 64]], ['pilotId', 'str8', [0, 64]], ['targetLatitudeDeg', 'f64', lat, true],
      ['targetLongitudeDeg', 'f64', lon, true], ['distanceToTargetM', 'f32', atLeast0, true], ['runId', ...RUN_ID],
      // 1.3: the held target's sequence (0 = none).
      ['targetSequence', 'u32', null, false, 3]] },
    8: { name: 'linkStatus', fields: [
      ['connected', 'bool'], ['fallbackHover', 'bool'],
      ['reason', 'enum', V.wireValues(V.LINK_REASONS)],
      ['navdataPerSecond', 'f32', atLeast0], ['checksumErrors', 'u32'], ['malformedPackets', 'u32'],
      ['lastNavdataAgeMs', 'u32'], ['lastCommandAgeMs', 'u32'],
      // 1.2: the link's last autopilot command and its answer (commandAck), all three under presence bit 0.
      ['ackCommand', 'enum', { 1: 'arm', 2: 'disarm', 3: 'forceDisarm', 4: 'takeoff', 5: 'land', 6: 'setMode',
        7: 'setMessageInterval' }, 0, 2],
      ['ackResult', 'enum', { 1: 'accepted', 2: 'temporarilyRejected', 3: 'denied', 4: 'unsupported', 5: 'failed',
        6: 'inProgress', 7: 'cancelled', 8: 'noAnswer' }, 0, 2],
      ['ackAgeMs', 'u32', null, 0, 2]], presenceAt: 'ackCommand' },
    9: { name: 'controlClaim', fields: [
      ['senderId', 'str8', [1, 64]], ['action', 'enum', { 1: 'claim', 2: 'release' }],
      ['controllerRunId', ...RUN_ID]] },
    // 1.2: the ground's heartbeat through the bridge.
    10: { name: 'groundBeacon', fields: [['senderId', 'str8', [1, 64]]] },
    // Zones are nested counts (zones of rings of vertices) that a field table cannot say: their own body codec.
    11: { name: 'airspaceDefinition', body: null },
  };
  const SIZES = { u8: 1, bool: 1, enum: 1, u16: 2, u32: 4, f32: 4, f64: 8 };
  const TYPE_BY_NAME = {};
  for (const t in TYPES) TYPE_BY_NAME[TYPES[t].name] = Number(t);

  const utf8 = new TextDecoder('utf-8', { fatal: true });
  const utf8Encoder = new TextEncoder();

  // A cursor over a body whose layout a field table cannot say (nested counts), with the same checks and errors.
  // Also used by missionproto.js for the mission payloads.
  class Reader {
    constructor(bytes, at, what, minor) {
      this.bytes = bytes; this.at = at; this.what = what; this.minor = minor;
      this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    }
    need(n) { if (this.at + n > this.bytes.length) throw new WireError('bodyTooShort', this.what); }
    u8() { this.need(1); return this.bytes[this.at++]; }
    u16() { this.need(2); const v = this.view.getUint16(this.at, true); this.at += 2; return v; }
    u32() { this.need(4); const v = this.view.getUint32(this.at, true); this.at += 4; return v; }
    f32() { this.need(4); const v = this.view.getFloat32(this.at, true); this.at += 4; return v; }
    f64() { this.need(8); const v = this.view.getFloat64(this.at, true); this.at += 8; return v; }
    // A number read and checked (check: one of the value checks above, or null).
    number(kind, name, check) {
      const v = this[kind]();
      const problem = check ? check(v) : null;
      if (problem) throw new WireError(problem === 'not finite' ? 'notFinite' : 'outOfRange', name + ' ' + problem);
      return v;
    }
    enumeration(name, values) {
      const raw = this.u8();
      if (!(raw in values)) throw new WireError('unknownEnumValue', name + ' ' + raw);
      return values[raw];
    }
    count(name, kind, lo, hi) {
      const n = this[kind]();
      if (n < lo || n > hi) throw new WireError('outOfRange', `${name} ${n} outside [${lo}, ${hi}]`);
      return n;
    }
    str8(name, lo, hi) {
      const n = this.u8();
      this.need(n);
      const raw = this.bytes.subarray(this.at, this.at + n);
      this.at += n;
      let text;
      try { text = utf8.decode(raw); } catch (e) { throw new WireError('invalidUTF8', name); }
      if (n < lo || n > hi) throw new WireError('stringLength', name);
      return text;
    }
    // At this format's minor or an older one nothing may follow the layout; a newer minor may append.
    end() { if (this.minor <= MINOR && this.at !== this.bytes.length) throw new WireError('bodyTooLong', this.what); }
  }

  class Writer {
    constructor() { this.out = []; this.scratch = new DataView(new ArrayBuffer(8)); }
    bytes(list) { for (const b of list) this.out.push(b); }
    put(n) { for (let i = 0; i < n; i++) this.out.push(this.scratch.getUint8(i)); }
    u8(v) { this.out.push(v & 0xFF); }
    u16(v) { this.scratch.setUint16(0, v, true); this.put(2); }
    u32(v) { this.scratch.setUint32(0, v >>> 0, true); this.put(4); }
    i64(v) { this.scratch.setBigInt64(0, BigInt(Math.trunc(v)), true); this.put(8); }
    f32(v) { this.scratch.setFloat32(0, v, true); this.put(4); }
    f64(v) { this.scratch.setFloat64(0, v, true); this.put(8); }
    str8(name, text, lo, hi) {
      const b = utf8Encoder.encode(typeof text === 'string' ? text : '');
      if (typeof text !== 'string' || b.length < lo || b.length > hi) throw new WireError('stringLength', name);
      this.u8(b.length); this.bytes(b);
    }
    result() { return Uint8Array.from(this.out); }
  }
  // Encoding runs the decoder's checks: what encode() writes, decode() reads.
  function checked(name, value, check) {
    const problem = typeof value !== 'number' ? 'not finite' : check ? check(value) : null;
    if (problem) throw new WireError(problem === 'not finite' ? 'notFinite' : 'outOfRange', name + ' ' + problem);
    return value;
  }

  // AirspaceDefinition (type 11, PROTOCOL.md): senderId, presence (bit 0 floorM), ceilingM, floorM, marginM,
  // zones. A zone: { name, kind: 'inclusion'|'keepOut', shape: 'polygon', rings: [[[lat, lon], …], …] (outer
  // first) } or { name, kind, shape: 'circle', centre: [lat, lon], radiusM }. An absent floor is null.
  const ZONE_KINDS = { 1: 'inclusion', 2: 'keepOut' }, SHAPES = { 1: 'polygon', 2: 'circle' };
  const AIRSPACE = {
    maxZones: 1000, maxRings: 255, maxVertices: 20000, maxTotalVertices: 60000,
    decode(r) {
      const senderId = r.str8('senderId', 1, 64);
      const presence = r.u8();
      if (r.minor <= MINOR && (presence & ~1)) throw new WireError('unknownPresenceBits', r.what);
      const ceilingM = r.number('f64', 'ceilingM', finite);
      const floorRaw = r.f64();
      const floorM = presence & 1 ? checked('floorM', floorRaw, finite) : null;
      const marginM = r.number('f64', 'marginM', atLeast0);
      const zoneCount = r.count('zones', 'u16', 0, AIRSPACE.maxZones);
      const zones = [];
      let total = 0;
      const vertex = () => [r.number('f64', 'latitudeDeg', lat), r.number('f64', 'longitudeDeg', lon)];
      for (let z = 0; z < zoneCount; z++) {
        const kind = r.enumeration('zone kind', ZONE_KINDS);
        const name = r.str8('zone name', 1, 64);
        if (r.enumeration('zone shape', SHAPES) === 'circle') {
          zones.push({ name, kind, shape: 'circle', centre: vertex(), radiusM: r.number('f64', 'radiusM', atLeast0) });
          continue;
        }
        const rings = [];
        const ringCount = r.count('rings', 'u8', 1, AIRSPACE.maxRings);
        for (let i = 0; i < ringCount; i++) {
          const n = r.count('vertices', 'u16', 0, AIRSPACE.maxVertices);
          total += n;
          if (total > AIRSPACE.maxTotalVertices) throw new WireError('outOfRange', 'vertices in all zones');
          const ring = [];
          for (let v = 0; v < n; v++) ring.push(vertex());
          rings.push(ring);
        }
        zones.push({ name, kind, shape: 'polygon', rings });
      }
      return { senderId, ceilingM, floorM, marginM, zones };
    },
    encode(w, m) {
      w.str8('senderId', m.senderId, 1, 64);
      const hasFloor = m.floorM !== null && m.floorM !== undefined;
      w.u8(hasFloor ? 1 : 0);
      w.f64(checked('ceilingM', m.ceilingM, finite));
      w.f64(hasFloor ? checked('floorM', m.floorM, finite) : 0);
      w.f64(checked('marginM', m.marginM, atLeast0));
      const zones = m.zones || [];
      if (zones.length > AIRSPACE.maxZones) throw new WireError('outOfRange', 'zones');
      w.u16(zones.length);
      const vertex = (p) => { w.f64(checked('latitudeDeg', p[0], lat)); w.f64(checked('longitudeDeg', p[1], lon)); };
      for (const zone of zones) {
        const kind = Object.keys(ZONE_KINDS).find((k) => ZONE_KINDS[k] === zone.kind);
        if (!kind) throw new WireError('unknownEnumValue', 'zone kind');
        w.u8(Number(kind));
        w.str8('zone name', zone.name, 1, 64);
        if (zone.shape === 'circle') {
          w.u8(2); vertex(zone.centre); w.f64(checked('radiusM', zone.radiusM, atLeast0));
          continue;
        }
        if (zone.shape !== 'polygon') throw new WireError('unknownEnumValue', 'zone shape');
        if (!zone.rings.length || zone.rings.length > AIRSPACE.maxRings) throw new WireError('outOfRange', 'rings');
        w.u8(1); w.u8(zone.rings.length);
        for (const ring of zone.rings) {
          if (ring.length > AIRSPACE.maxVertices) throw new WireError('outOfRange', 'vertices');
          w.u16(ring.length);
          ring.forEach(vertex);
        }
      }
    },
  };
  TYPES[11].body = AIRSPACE;

  // AirspaceRoutePlan (type 13, PROTOCOL.md): the controller's way around keep-out zones. { purpose: 'none' |
  // 'target' | 'returnHome', goal: [lat, lon], start: [lat, lon], lengthM, straightM, nextCorner, zoneName,
  // corners: [[lat, lon], …] }. Purpose none with no corner: no route.
  const PURPOSES = { 0: 'none', 1: 'target', 2: 'returnHome' };
  const ROUTE = {
    maxCorners: 64,
    decode(r) {
      const purpose = r.enumeration('purpose', PURPOSES);
      const point = (name) => [r.number('f64', name + ' latitudeDeg', lat), r.number('f64', name + ' longitudeDeg',
        lon)];
      const goal = point('goal'), start = point('start');
      const lengthM = r.number('f64', 'lengthM', atLeast0), straightM = r.number('f64', 'straightM', atLeast0);
      const nextCorner = r.u8();
      const zoneName = r.str8('zoneName', 0, 64);
      const count = r.count('cornerCount', 'u8', 0, ROUTE.maxCorners);
      if (purpose === 'none' && count > 0) throw new WireError('outOfRange', 'cornerCount ' + count + ' for none');
      const corners = [];
      for (let i = 0; i < count; i++) corners.push(point('corner'));
      if (nextCorner > count) throw new WireError('outOfRange', `nextCorner ${nextCorner} outside [0, ${count}]`);
      return { purpose, goal, start, lengthM, straightM, nextCorner, zoneName, corners };
    },
    encode(w, m) {
      const purpose = Object.keys(PURPOSES).find((k) => PURPOSES[k] === m.purpose);
      if (purpose === undefined) throw new WireError('unknownEnumValue', 'purpose');
      const corners = m.corners || [];
      if (corners.length > ROUTE.maxCorners) throw new WireError('outOfRange', 'cornerCount');
      if (m.purpose === 'none' && corners.length) throw new WireError('outOfRange', 'cornerCount for none');
      const next = m.nextCorner || 0;
      if (!Number.isInteger(next) || next < 0 || next > corners.length) throw new WireError('outOfRange', 'nextCorner');
      const point = (name, p) => { w.f64(checked(name, p[0], lat)); w.f64(checked(name, p[1], lon)); };
      w.u8(Number(purpose));
      point('goal', m.goal); point('start', m.start);
      w.f64(checked('lengthM', m.lengthM, atLeast0)); w.f64(checked('straightM', m.straightM, atLeast0));
      w.u8(next);
      w.str8('zoneName', m.zoneName || '', 0, 64);
      w.u8(corners.length);
      for (const c of corners) point('corner', c);
    },
  };
  TYPES[13] = { name: 'airspaceRoutePlan', body: ROUTE };
  TYPE_BY_NAME.airspaceRoutePlan = 13;
  // { field name → presence bit } of a message's optional fields.
  function presenceBits(spec) {
    const bits = {};
    let next = 0;
    for (const f of spec.fields) {
      if (typeof f[3] === 'number') bits[f[0]] = f[3];
      else if (f[3]) bits[f[0]] = next++;
    }
    return bits;
  }
  const hasPresence = (spec) => spec.fields.some((f) => typeof f[3] === 'number' || f[3]);
  const presenceBefore = (spec) => spec.presenceAt || spec.fields[0][0];

  function toBytes(data) {
    if (data instanceof Uint8Array) return data;
    if (data instanceof ArrayBuffer) return new Uint8Array(data);
    if (ArrayBuffer.isView(data)) return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
    throw new WireError('notBinary', typeof data);
  }

  // Header checks in the documented order: magic[0], magic[1], major, length, type.
  function decodeHeader(bytes) {
    if (bytes.length === 0) throw new WireError('truncatedHeader', 'empty');
    if (bytes[0] !== 0xFF) throw new WireError('looksLikeText', 'first byte ' + bytes[0]);
    if (bytes.length < 2 || bytes[1] !== 0x51) throw new WireError('badMagic');
    if (bytes.length < 3 || bytes[2] !== MAJOR) throw new WireError('unsupportedMajorVersion', String(bytes[2]));
    if (bytes.length < HEADER) throw new WireError('truncatedHeader', bytes.length + ' bytes');
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const type = bytes[4];
    if (!TYPES[type]) throw new WireError('unknownMessageType', String(type));
    return { minor: bytes[3], type, sequence: view.getUint32(5, true), timestampUs: Number(view.getBigInt64(9, true)) };
  }

  // Decodes one binary payload: { type: 'target', sequence, timestampUs, minor, ...body fields }. Absent optional
  // fields are null. Throws WireError on anything PROTOCOL.md rejects.
  function decode(data, expectedType) {
    const bytes = toBytes(data);
    const header = decodeHeader(bytes);
    const spec = TYPES[header.type];
    if (expectedType && spec.name !== expectedType) throw new WireError('wrongMessageType', spec.name);
    if (spec.body) {
      const reader = new Reader(bytes, HEADER, spec.name, header.minor);
      const body = spec.body.decode(reader);
      reader.end();
      return Object.assign({ type: spec.name, sequence: header.sequence, timestampUs: header.timestampUs,
        minor: header.minor }, body);
    }
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const bits = presenceBits(spec);
    let at = HEADER;
    const need = (n) => { if (at + n > bytes.length) throw new WireError('bodyTooShort', spec.name); };
    let presence = 0;
    const raw = {};
    for (const [name, kind, limits, , since] of spec.fields) {
      // An older payload ends before what a later minor appended (a 1.1 LinkStatus before its presence byte).
      if (since > header.minor) continue;
      if (hasPresence(spec) && name === presenceBefore(spec)) { need(1); presence = bytes[at++]; }
      if (kind === 'str8') {
        need(1); const n = bytes[at++]; need(n);
        raw[name] = { bytes: bytes.subarray(at, at + n), limits }; at += n;
        continue;
      }
      need(SIZES[kind]);
      switch (kind) {
        case 'u8': case 'bool': case 'enum': raw[name] = bytes[at]; break;
        case 'u16': raw[name] = view.getUint16(at, true); break;
        case 'u32': raw[name] = view.getUint32(at, true); break;
        case 'f32': raw[name] = view.getFloat32(at, true); break;
        case 'f64': raw[name] = view.getFloat64(at, true); break;
      }
      at += SIZES[kind];
    }
    const mask = Object.values(bits).reduce((m, bit) => m | (1 << bit), 0);
    if (header.minor <= MINOR) {
      if (at !== bytes.length) throw new WireError('bodyTooLong', spec.name);
      if (presence & ~mask) throw new WireError('unknownPresenceBits', spec.name);
    }
    // Format 1.1 added Command kind 7 (return): a 1.0 sender cannot have meant it.
    if (spec.name === 'command' && header.minor < 1 && raw.kind === 7) throw new WireError('unknownEnumValue', 'kind');
    // 1.4: activity 9 `unknown` (a controller that has had no navdata yet); an older payload cannot carry it.
    if (spec.name === 'controllerState' && header.minor < 4 && raw.activity === 9) {
      throw new WireError('unknownEnumValue', 'activity');
    }
    const message = { type: spec.name, sequence: header.sequence, timestampUs: header.timestampUs,
      minor: header.minor };
    for (const [name, kind, check, , since] of spec.fields) {
      const optional = name in bits;
      if (since > header.minor) { message[name] = optional ? null : 0; continue; }
      // An absent optional's slot is read but not validated.
      if (optional && !(presence & (1 << bits[name]))) { message[name] = null; continue; }
      message[name] = fieldValue(name, kind, check, raw[name]);
    }
    return message;
  }

  function fieldValue(name, kind, check, value) {
    switch (kind) {
      case 'str8': {
        let text;
        try { text = utf8.decode(value.bytes); } catch (e) { throw new WireError('invalidUTF8', name); }
        if (value.bytes.length < value.limits[0] || value.bytes.length > value.limits[1]) throw new WireError(
          'stringLength', name);
        return text;
      }
      case 'bool':
        if (value > 1) throw new WireError('invalidBool', name);
        return value === 1;
      case 'enum':
        if (!(value in check)) throw new WireError('unknownEnumValue', name + ' ' + value);
        return check[value];
      default: {
        const problem = check ? check(value) : null;
        if (problem) throw new WireError(problem === 'not finite' ? 'notFinite' : 'outOfRange', name + ' ' + problem);
        return value;
      }
    }
  }

  // Encodes { type, sequence, timestampUs, ...fields } (the shape decode() returns) into a Uint8Array.
  function encode(message) {
    const type = TYPE_BY_NAME[message && message.type];
    if (!type) throw new WireError('unknownMessageType', String(message && message.type));
    const spec = TYPES[type];
    if (spec.body) {
      const writer = new Writer();
      writer.bytes([0xFF, 0x51, MAJOR, MINOR, type]);
      writer.u32(message.sequence >>> 0);
      writer.i64(message.timestampUs || 0);
      spec.body.encode(writer, message);
      return writer.result();
    }
    const bits = presenceBits(spec);
    const parts = [];
    let presence = 0;
    for (const [name, kind, check, , since] of spec.fields) {
      const optional = name in bits;
      const value = since && !optional && message[name] === undefined ? 0 : message[name];
      const present = !(optional && (value === null || value === undefined));
      if (optional && present) presence |= 1 << bits[name];
      if (kind === 'str8') {
        const bytes = utf8Encoder.encode(typeof value === 'string' ? value : '');
        if (typeof value !== 'string' || bytes.length < check[0] || bytes.length > check[1]) throw new WireError(
          'stringLength', name);
        parts.push([kind, bytes]);
        continue;
      }
      let raw = present ? value : 0;
      if (present) {
        if (kind === 'enum') {
          const code = Object.keys(check).find((k) => check[k] === value);
          if (code === undefined) throw new WireError('unknownEnumValue', name);
          raw = Number(code);
        } else if (kind === 'bool') {
          if (typeof value !== 'boolean') throw new WireError('invalidBool', name);
          raw = value ? 1 : 0;
        } else {
          if (typeof value !== 'number') throw new WireError('notFinite', name);
          if (kind === 'f32') raw = Math.fround(value);
          const problem = check ? check(raw) : null;
          if (problem) throw new WireError(problem === 'not finite' ? 'notFinite' : 'outOfRange', name);
          if (kind[0] === 'u' && (!Number.isInteger(raw) || raw < 0 || raw >= 2 ** (
            8 * SIZES[kind]))) throw new WireError('outOfRange', name);
        }
      }
      parts.push([kind, raw]);
    }
    // Fields sharing a presence bit (LinkStatus's acknowledgement) are given together or not at all.
    for (const [name, bit] of Object.entries(bits)) {
      const value = message[name];
      if ((value === null || value === undefined) === Boolean(presence & (1 << bit))) throw new WireError(
        'incompleteOptionalGroup', name);
    }
    const sequence = message.sequence >>> 0;
    const size = HEADER + (hasPresence(spec) ? 1 : 0) +
      parts.reduce((sum, [kind, v]) => sum + (kind === 'str8' ? 1 + v.length : SIZES[kind]), 0);
    const bytes = new Uint8Array(size);
    const view = new DataView(bytes.buffer);
    bytes.set([0xFF, 0x51, MAJOR, MINOR, type]);
    view.setUint32(5, sequence, true);
    view.setBigInt64(9, BigInt(Math.trunc(message.timestampUs || 0)), true);
    let at = HEADER;
    const presenceIndex = spec.fields.findIndex((f) => f[0] === presenceBefore(spec));
    for (const [index, [kind, v]] of parts.entries()) {
      if (hasPresence(spec) && index === presenceIndex) bytes[at++] = presence;
      switch (kind) {
        case 'str8': bytes[at] = v.length; bytes.set(v, at + 1); at += 1 + v.length; continue;
        case 'u8': case 'bool': case 'enum': bytes[at] = v; break;
        case 'u16': view.setUint16(at, v, true); break;
        case 'u32': view.setUint32(at, v, true); break;
        case 'f32': view.setFloat32(at, v, true); break;
        case 'f64': view.setFloat64(at, v, true); break;
      }
      at += SIZES[kind];
    }
    return bytes;
  }

  // ServiceStatus JSON (quad/<id>/status/<service>): all five keys required, unknown keys ignored.
  function decodeStatus(data) {
    const text = typeof data === 'string' ? data : utf8.decode(toBytes(data));
    const value = JSON.parse(text);
    if (!value || typeof value !== 'object' || Array.isArray(value)) throw new WireError('wrongJSONType', 'status');
    if (value.state !== 'online' && value.state !== 'offline') throw new WireError('outOfRange', 'state');
    for (const [key, type] of [['service', 'string'], ['version', 'string'], ['started_at', 'number'],
      ['pid', 'number']]) {
      if (typeof value[key] !== type) throw new WireError('missingJSONKey', key);
    }
    return { state: value.state, service: value.service, version: value.version, startedAt: value.started_at,
      pid: value.pid };
  }

  // The topic table of Shared/Leaf/QuadProtocol/Topics.swift (a node test checks they agree): path below
  // quad/<drone-id>/, payload type, QoS, retained.
  const TOPICS = {
    target: { path: 'target', type: 'target', qos: 1, retain: false },
    command: { path: 'command', type: 'command', qos: 1, retain: false },
    droneState: { path: 'telemetry/drone', type: 'droneState', qos: 0, retain: false },
    position: { path: 'telemetry/position', type: 'positionFix', qos: 0, retain: false },
    navigation: { path: 'telemetry/navigation', type: 'navigationSolution', qos: 0, retain: false },
    controllerState: { path: 'telemetry/controller', type: 'controllerState', qos: 1, retain: true },
    linkStatus: { path: 'telemetry/link', type: 'linkStatus', qos: 1, retain: true },
    flightCommand: { path: 'flight/command', type: 'flightCommand', qos: 0, retain: false },
    controlClaim: { path: 'pilot/claim', type: 'controlClaim', qos: 1, retain: false },
    groundBeacon: { path: 'ground/beacon', type: 'groundBeacon', qos: 0, retain: false },
    // The airspace (issue 38): the map draws the one the controller holds (airspaceHeld); the status (type 12)
    // is not decoded here.
    airspace: { path: 'airspace', type: 'airspaceDefinition', qos: 1, retain: false },
    airspaceStatus: { path: 'airspace/status', type: 'airspaceStatus', qos: 1, retain: true },
    airspaceHeld: { path: 'airspace/held', type: 'airspaceDefinition', qos: 1, retain: true },
    airspaceFence: { path: 'airspace/fence', type: 'airspaceStatus', qos: 1, retain: true },
    // The controller's way around keep-out zones (type 13): the map draws it; purpose none: no route.
    airspaceRoute: { path: 'airspace/route', type: 'airspaceRoutePlan', qos: 1, retain: true },
    // Presence: JSON text one level below, status/<service> (decodeStatus), not a binary payload.
    presence: { path: 'status', type: 'serviceStatus', qos: 1, retain: true },
    // The log sync's own payloads (PROTOCOL.md "Log sync"), not decoded here: the map does not take part.
    logSyncRequest: { path: 'log/sync/request', type: 'logSyncRequestPayload', qos: 1, retain: false },
    logSyncResponse: { path: 'log/sync/response', type: 'logSyncResponsePayload', qos: 1, retain: false },
    // Missions (PROTOCOL.md "Missions"): their own header, decoded by missionproto.js (upload and progress).
    missionUpload: { path: 'mission/upload', type: 'missionUploadPayload', qos: 1, retain: true },
    missionCommand: { path: 'mission/command', type: 'missionCommandPayload', qos: 1, retain: false },
    missionProgress: { path: 'mission/progress', type: 'missionProgressPayload', qos: 1, retain: true },
    missionStatus: { path: 'mission/status', type: 'missionStatusPayload', qos: 1, retain: true },
    missionHeld: { path: 'mission/held', type: 'missionUploadPayload', qos: 1, retain: true },
    missionAutopilot: { path: 'mission/autopilot', type: 'missionStatusPayload', qos: 1, retain: true },
  };
  const DRONE_ID = /^[a-z0-9-]{1,32}$/;
  // quad/<id>/<path> → { drone, path } or null (an id outside [a-z0-9-]{1,32} is not ours).
  function parseTopic(topic) {
    const m = /^quad\/([^/]+)\/(.+)$/.exec(topic);
    return m && DRONE_ID.test(m[1]) ? { drone: m[1], path: m[2] } : null;
  }
  const topic = (spec, drone) => 'quad/' + drone + '/' + spec.path;

  const api = { TOPICS, DRONE_ID, parseTopic, topic, WireError, decode, encode, decodeStatus, decodeHeader, TYPES,
    MAJOR, MINOR, Reader, Writer, checked, checks: { finite, atLeast0, lat, lon } };
  if (typeof module !== 'undefined' && module.exports) module.exports = api;
  else root.QuadProto = api;
})(typeof self !== 'undefined' ? self : this);

// The live map's JS codec (web/map/quadproto.js) against the golden fixtures of the Swift codec.
// Run: node --test Tests/WebMapTests/   (part of `make test`)
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const Q = require('../../web/map/quadproto.js');

const fixtures = path.join(__dirname, '..', 'QuadProtocolTests', 'Fixtures');
const cache = {};
function fixture(name) {
  if (cache[name]) return Uint8Array.from(cache[name]);
  const text = fs.readFileSync(path.join(fixtures, name + '.hex'), 'utf8');
  const hex = text.split('\n').map((line) => line.replace(/#.*/, '')).join(' ').trim().split(/\s+/);
  cache[name] = Uint8Array.from(hex.map((h) => parseInt(h, 16)));
  return Uint8Array.from(cache[name]);
}

// The run the golden messages are addressed to, and the golden controller state's own (format 1.2).
const RUN = 1592590337;

const expected = {
  'target': { type: 'target', sequence: 7, timestampUs: 1700000000123456, senderId: 'phone-anna',
    latitudeDeg: 52.5163, longitudeDeg: 13.3777, altitudeM: 3.5, ttlS: 5, controllerRunId: RUN },
  'command': { type: 'command', sequence: 8, timestampUs: 1700000000223456, senderId: 'phone-anna', kind: 'takeoff',
    controllerRunId: RUN },
  'navigation-solution': { type: 'navigationSolution', sequence: 42, timestampUs: 1700000001000000, targetSequence: 7,
    targetLatitudeDeg: 52.5163, targetLongitudeDeg: 13.3777, droneLatitudeDeg: 52.5162, droneLongitudeDeg: 13.3775,
    distanceM: 17.25, bearingDeg: 310.5, headingDeg: 300.25, directionDifferenceDeg: 10.25, positionAgeMs: 120,
    headingAgeMs: 30, targetAgeMs: 800 },
  'flight-command': { type: 'flightCommand', sequence: 1000, timestampUs: 1700000001030000, refMode: 'fly',
    flatTrim: false, progressive: true, rollFrac: 0, pitchFrac: -0.25, gazFrac: 0.5, yawFrac: 0.125, takeoffId: 7 },
  'drone-state': { type: 'droneState', sequence: 5000, timestampUs: 1700000001040000, navdataSequence: 123456,
    stateBits: 0x80000001, controlState: 'hovering', controlMinorState: 0, batteryPercent: 87, altitudeM: 1.5,
    pitchDeg: -2.5, rollDeg: 1.25, yawDeg: -90, velocityXMps: 0.5, velocityYMps: -0.25, velocityZMps: 0,
    magnetoHeadingDeg: 270.5 },
  'position-fix': { type: 'positionFix', sequence: 77, timestampUs: 1700000001050000, latitudeDeg: 52.5162,
    longitudeDeg: 13.3775, altitudeM: 34.5, headingDeg: 300.25, horizontalAccuracyM: 2.5, satellites: 9,
    source: 'gpsd' },
  'controller-state': { type: 'controllerState', sequence: 12, timestampUs: 1700000001060000,
    activity: 'flyingToTarget',
    reason: 'target', pilotId: 'phone-anna', targetLatitudeDeg: 52.5163, targetLongitudeDeg: 13.3777,
    distanceToTargetM: 17.25,
    runId: RUN, targetSequence: 7 },
  'link-status': { type: 'linkStatus', sequence: 3, timestampUs: 1700000001070000, connected: true,
    fallbackHover: false,
    reason: 'ok', navdataPerSecond: 200, checksumErrors: 1, malformedPackets: 0, lastNavdataAgeMs: 5,
    lastCommandAgeMs: 30,
    ackCommand: 'takeoff', ackResult: 'denied', ackAgeMs: 1500 },
  'link-status-no-ack': { type: 'linkStatus', sequence: 4, timestampUs: 1700000001070000, connected: true,
    fallbackHover: false, reason: 'ok', navdataPerSecond: 200, checksumErrors: 1, malformedPackets: 0,
    lastNavdataAgeMs: 5, lastCommandAgeMs: 30, ackCommand: null, ackResult: null, ackAgeMs: null },
  'control-claim': { type: 'controlClaim', sequence: 1, timestampUs: 1700000000000000, senderId: 'phone-anna',
    action: 'claim',
    controllerRunId: RUN },
  'command-return': { type: 'command', sequence: 9, timestampUs: 1700000000323456, senderId: 'phone-anna',
    kind: 'return',
    controllerRunId: RUN },
  'ground-beacon': { type: 'groundBeacon', sequence: 77, timestampUs: 1700000000400000, senderId: 'ground-laptop' },
};

// What a 1.0/1.1 sender says: no run ids (they read as 0, unaddressed), a LinkStatus without an acknowledgement.
function older(fields) {
  const copy = { ...fields };
  if (copy.type === 'flightCommand') copy.takeoffId = 0;
  if (copy.type === 'controllerState') copy.targetSequence = 0;
  for (const key of ['controllerRunId', 'runId']) if (key in copy) copy[key] = 0;
  for (const key of ['ackCommand', 'ackResult', 'ackAgeMs']) if (key in copy) copy[key] = null;
  return copy;
}

// Format 1.0 and 1.1 payloads (Fixtures/1.0, Fixtures/1.1) still decode, at their own minor. New in 1.2: the
// no-ack LinkStatus fixture and GroundBeacon; new in 1.1: Command kind return.
const newIn12 = ['link-status-no-ack', 'ground-beacon'];
for (const [minor, names] of [[0, Object.keys(expected).filter((n) => n !== 'command-return' && !newIn12.includes(n))],
  [1, Object.keys(expected).filter((n) => !newIn12.includes(n))]]) {
  for (const name of names) {
    test(`${name}: the format 1.${minor} fixture still decodes`, () => {
      assert.deepEqual(Q.decode(fixture(`1.${minor}/` + name)), { ...older(expected[name]), minor });
    });
  }
}

// Format 1.2 payloads (Fixtures/1.2) decode too: the same values but a FlightCommand asks for no takeoff.
for (const name of Object.keys(expected)) {
  test(`${name}: the format 1.2 fixture still decodes`, () => {
    const fields = { ...expected[name] };
    if (fields.type === 'flightCommand') fields.takeoffId = 0;
    if (fields.type === 'controllerState') fields.targetSequence = 0;
    assert.deepEqual(Q.decode(fixture('1.2/' + name)), { ...fields, minor: 2 });
  });
}

// Format 1.3 payloads (Fixtures/1.3) are the 1.4 layouts: the same values.
for (const name of Object.keys(expected)) {
  test(`${name}: the format 1.3 fixture still decodes`, () => {
    assert.deepEqual(Q.decode(fixture('1.3/' + name)), { ...expected[name], minor: 3 });
  });
}

test('activity 9 (unknown) is 1.4: it decodes in a 1.4 payload and is refused in a 1.3 one', () => {
  const state = Uint8Array.from(fixture('controller-state')); state[18] = 9;
  assert.equal(Q.decode(state).activity, 'unknown');
  state[3] = 3;
  assert.throws(() => Q.decode(state), { code: 'unknownEnumValue' });
});

test('the FlightCommand takeoff id is 1.3: a 1.2 payload with it is too long, a 1.3 one without it too short', () => {
  const current = Uint8Array.from(fixture('flight-command')); current[3] = 2;
  assert.throws(() => Q.decode(current), { code: 'bodyTooLong' });
  const old = Uint8Array.from(fixture('1.2/flight-command')); old[3] = 3;
  assert.throws(() => Q.decode(old), { code: 'bodyTooShort' });
});

test('the LinkStatus acknowledgement is 1.2: a 1.1 payload with it is too long, a 1.2 one without it too short', () => {
  const current = Uint8Array.from(fixture('link-status')); current[3] = 1;
  assert.throws(() => Q.decode(current), { code: 'bodyTooLong' });
  const old = Uint8Array.from(fixture('1.1/link-status')); old[3] = 2;
  assert.throws(() => Q.decode(old), { code: 'bodyTooShort' });
  const bad = Uint8Array.from(fixture('link-status')); bad[42] = 9;
  assert.throws(() => Q.decode(bad), { code: 'unknownEnumValue' });
  const badBits = Uint8Array.from(fixture('link-status')); badBits[40] = 3;
  assert.throws(() => Q.decode(badBits), { code: 'unknownPresenceBits' });
  // An absent acknowledgement's slots are read but not validated.
  const absent = Uint8Array.from(fixture('link-status-no-ack')); absent[41] = 99;
  assert.equal(Q.decode(absent).ackCommand, null);
  // The three are one optional: all given or none.
  assert.throws(() => Q.encode({ ...expected['link-status'], ackResult: null }), { code: 'incompleteOptionalGroup' });
  const { ackCommand, ackResult, ackAgeMs, ...withoutAck } = expected['link-status-no-ack'];
  assert.deepEqual(Q.encode(withoutAck), fixture('link-status-no-ack'));
  assert.throws(() => Q.encode({ ...expected['link-status'], ackResult: 'maybe' }), { code: 'unknownEnumValue' });
});

test('format 1.2: commands, claims and targets carry the run they are addressed to; 0 (or left out) = unaddressed',
  () => {
  assert.equal(Q.decode(fixture('controller-state')).runId, RUN);
  const command = { type: 'command', sequence: 1, timestampUs: 1, senderId: 'map', kind: 'land' };
  assert.equal(Q.decode(Q.encode(command)).controllerRunId, 0);
  assert.equal(Q.decode(Q.encode({ ...command, controllerRunId: 4294967295 })).controllerRunId, 4294967295);
  assert.throws(() => Q.encode({ ...command, controllerRunId: 2 ** 32 }), { code: 'outOfRange' });
  assert.throws(() => Q.encode({ ...command, controllerRunId: -1 }), { code: 'outOfRange' });
  // A 1.2 command cut before its run id is broken, not unaddressed.
  assert.throws(() => Q.decode(fixture('command').subarray(0, 29)), { code: 'bodyTooShort' });
});

test('a format 1.0 command with kind 7 (return, new in 1.1) is rejected; a negative target altitude too', () => {
  const old = Uint8Array.from(fixture('1.0/command')); old[28] = 7;
  assert.throws(() => Q.decode(old), { code: 'unknownEnumValue' });
  const target = { type: 'target', sequence: 1, timestampUs: 1, senderId: 'map', latitudeDeg: 52, longitudeDeg: 13,
    ttlS: 0 };
  assert.throws(() => Q.encode({ ...target, altitudeM: -1 }), { code: 'outOfRange' });
});

for (const [name, fields] of Object.entries(expected)) {
  test(`${name}: decodes the golden fixture`, () => {
    const message = Q.decode(fixture(name));
    assert.deepEqual(message, { ...fields, minor: Q.MINOR });
  });
  test(`${name}: encodes back to the golden bytes`, () => {
    assert.deepEqual(Q.encode(fields), fixture(name));
  });
  test(`${name}: every truncation is rejected, never a crash`, () => {
    const bytes = fixture(name);
    for (let n = 0; n < bytes.length; n++) assert.throws(() => Q.decode(bytes.subarray(0, n)), Q.WireError,
      `${n} bytes`);
  });
  test(`${name}: a trailing byte is bodyTooLong at the current minor, ignored at the next`, () => {
    const longer = Uint8Array.from([...fixture(name), 0]);
    assert.throws(() => Q.decode(longer), { code: 'bodyTooLong' });
    longer[3] = Q.MINOR + 1;
    assert.equal(Q.decode(longer).type, fields.type);
  });
}

test('header errors in the documented order', () => {
  const t = fixture('target');
  assert.throws(() => Q.decode(new Uint8Array(0)), { code: 'truncatedHeader' });
  assert.throws(() => Q.decode(new TextEncoder().encode('{"lat":1}')), { code: 'looksLikeText' });
  assert.throws(() => Q.decode(Uint8Array.from([0xFF, 0x52, 1])), { code: 'badMagic' });
  assert.throws(() => Q.decode(Uint8Array.from([0xFF, 0x51, 2])), { code: 'unsupportedMajorVersion' });
  assert.throws(() => Q.decode(t.subarray(0, 10)), { code: 'truncatedHeader' });
  // Type 12 (AirspaceStatus) is not read by the page.
  const unknown = Uint8Array.from(t); unknown[4] = 12;
  assert.throws(() => Q.decode(unknown), { code: 'unknownMessageType' });
  assert.throws(() => Q.decode(t, 'command'), { code: 'wrongMessageType' });
});

test('value errors: presence bits, bool, enum, NaN, ranges, UTF-8', () => {
  const mutate = (name, offset, value) => { const b = Uint8Array.from(fixture(name)); b[offset] = value; return b; };
  assert.throws(() => Q.decode(mutate('target', 17, 3)), { code: 'unknownPresenceBits' });
  assert.throws(() => Q.decode(mutate('link-status', 17, 2)), { code: 'invalidBool' });
  assert.throws(() => Q.decode(mutate('command', 28, 8)), { code: 'unknownEnumValue' });
  assert.throws(() => Q.decode(mutate('drone-state', 29, 101)), { code: 'outOfRange' });
  assert.throws(() => Q.decode(mutate('target', 19, 0xC3)), { code: 'invalidUTF8' });
  const nan = Uint8Array.from(fixture('position-fix'));
  new DataView(nan.buffer).setFloat64(18, NaN, true);
  assert.throws(() => Q.decode(nan), { code: 'notFinite' });
  const lat = Uint8Array.from(fixture('position-fix'));
  new DataView(lat.buffer).setFloat64(18, 91, true);
  assert.throws(() => Q.decode(lat), { code: 'outOfRange' });
  // An absent optional's slot is not validated.
  const absent = mutate('position-fix', 17, 0);
  new DataView(absent.buffer).setFloat32(38, NaN, true);
  assert.equal(Q.decode(absent).headingDeg, null);
});

test('the encoder refuses what the decoder rejects', () => {
  const base = { type: 'target', sequence: 1, timestampUs: 1, senderId: 'map', latitudeDeg: 52, longitudeDeg: 13,
    ttlS: 0 };
  assert.equal(Q.decode(Q.encode(base)).altitudeM, null);
  assert.throws(() => Q.encode({ ...base, latitudeDeg: 95 }), { code: 'outOfRange' });
  assert.throws(() => Q.encode({ ...base, longitudeDeg: NaN }), { code: 'notFinite' });
  assert.throws(() => Q.encode({ ...base, senderId: '' }), { code: 'stringLength' });
  assert.throws(() => Q.encode({ ...base, senderId: 'x'.repeat(65) }), { code: 'stringLength' });
  assert.throws(() => Q.encode({ type: 'command', senderId: 'map', kind: 'fly-away' }), { code: 'unknownEnumValue' });
  assert.throws(() => Q.encode({ type: 'nonsense' }), { code: 'unknownMessageType' });
});

test('random bytes never escape as anything but a WireError', () => {
  let seed = 12345;
  const next = () => (seed = (seed * 1103515245 + 12345) >>> 0) >>> 16;
  const names = Object.keys(expected);
  for (let i = 0; i < 20000; i++) {
    const bytes = Uint8Array.from(fixture(names[i % names.length]));
    for (let k = 0; k < 1 + (next() % 4); k++) bytes[17 + (next() % (bytes.length - 17))] = next() & 0xFF;
    try { Q.decode(bytes.subarray(0, bytes.length - (next() % 3 === 0 ? next() % 4 : 0))); } catch (e) {
      assert.ok(e instanceof Q.WireError, String(e));
    }
  }
});

test('status JSON: five keys required, unknown keys ignored', () => {
  const s = Q.decodeStatus(
    '{"state":"online","service":"navigator","version":"1.0.0","started_at":1700000000.25,"pid":4242,"x":1}');
  assert.equal(s.state, 'online');
  assert.equal(s.service, 'navigator');
  assert.throws(() => Q.decodeStatus('{"state":"online"}'), Q.WireError);
  assert.throws(() => Q.decodeStatus('{"state":"maybe","service":"a","version":"","started_at":0,"pid":1}'),
    Q.WireError);
  assert.throws(() => Q.decodeStatus('not json'), SyntaxError);
  assert.throws(() => Q.decodeStatus('null'), Q.WireError);
});

test('the JS topic table is the one of Shared/Leaf/QuadProtocol/Topics.swift', () => {
  const swift = fs.readFileSync(path.join(__dirname, '..', '..', 'Shared', 'Leaf', 'QuadProtocol', 'Topics.swift'),
    'utf8');
  const rows = {};
  const pattern = /static let (\w+) = TopicSpec<(\w+)>\(\s*path: "([^"]+)", qos: \.(\w+), retain: (true|false)/g;
  for (const m of swift.matchAll(pattern)) {
    rows[m[1]] = { path: m[3], type: m[2][0].toLowerCase() + m[2].slice(1), qos: m[4] === 'atLeastOnce' ? 1 : 0,
      retain: m[5] === 'true' };
  }
  assert.ok(Object.keys(rows).length >= 9, 'parsed ' + Object.keys(rows));
  assert.deepEqual(Q.TOPICS, rows);
  assert.deepEqual(Q.parseTopic('quad/drone-2/telemetry/drone'), { drone: 'drone-2', path: 'telemetry/drone' });
  assert.equal(Q.parseTopic('quad/Drone/telemetry/drone'), null);
  assert.equal(Q.parseTopic('other/drone1/x'), null);
  assert.equal(Q.topic(Q.TOPICS.target, 'drone1'), 'quad/drone1/target');
});

// The map's airspace: the AirspaceDefinition codec (web/map/quadproto.js, type 11) against the Swift golden fixture,
// and the page's advisory target check (web/map/zones.js) against the controller's rules.
// Run: node --test Tests/WebMapTests/   (part of `make test`)
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const Q = require('../../web/map/quadproto.js');
const Z = require('../../web/map/zones.js');

function hexFixture(file) {
  const text = fs.readFileSync(file, 'utf8');
  return Uint8Array.from(text.split('\n').map((l) => l.replace(/#.*/, '')).join(' ').trim().split(/\s+/)
    .map((h) => parseInt(h, 16)));
}
const golden = () => hexFixture(path.join(__dirname, '..', 'QuadProtocolTests', 'Fixtures', 'airspace-definition.hex'));

test('the golden AirspaceDefinition decodes to its zones and encodes back to the same bytes', () => {
  const m = Q.decode(golden(), 'airspaceDefinition');
  assert.deepEqual(m, { type: 'airspaceDefinition', sequence: 3, timestampUs: 1700000000500000, minor: 4,
    senderId: 'ground-laptop', ceilingM: 60, floorM: 2, marginM: 5, zones: [
      { name: 'lake', kind: 'keepOut', shape: 'polygon',
        rings: [[[52.517, 13.376], [52.517, 13.378], [52.516, 13.377]]] },
      { name: 'field', kind: 'inclusion', shape: 'circle', centre: [52.5163, 13.3777], radiusM: 500 }] });
  assert.deepEqual(Q.encode(m), golden());
  assert.equal(Q.decode(Q.encode({ ...m, floorM: null })).floorM, null);
});

test('a broken AirspaceDefinition is refused with the codec\'s errors, never half read', () => {
  const b = golden();
  assert.throws(() => Q.decode(b.subarray(0, b.length - 1)), { code: 'bodyTooShort' });
  assert.throws(() => Q.decode(Uint8Array.from([...b, 0])), { code: 'bodyTooLong' });
  const newer = Uint8Array.from([...b, 0]); newer[3] = Q.MINOR + 1;
  assert.equal(Q.decode(newer).zones.length, 2);
  const mutate = (offset, value) => { const c = Uint8Array.from(b); c[offset] = value; return c; };
  assert.throws(() => Q.decode(mutate(31, 2)), { code: 'unknownPresenceBits' });
  assert.throws(() => Q.decode(mutate(58, 3)), { code: 'unknownEnumValue' });    // zone kind
  assert.throws(() => Q.decode(mutate(64, 3)), { code: 'unknownEnumValue' });    // shape
  assert.throws(() => Q.decode(mutate(65, 0)), { code: 'outOfRange' });          // no ring
  const lat = Uint8Array.from(b); new DataView(lat.buffer).setFloat64(68, 95, true);
  assert.throws(() => Q.decode(lat), { code: 'outOfRange' });
  const nan = Uint8Array.from(b); new DataView(nan.buffer).setFloat64(32, NaN, true);
  assert.throws(() => Q.decode(nan), { code: 'notFinite' });
  const radius = Uint8Array.from(b); new DataView(radius.buffer).setFloat64(140, -1, true);
  assert.throws(() => Q.decode(radius), { code: 'outOfRange' });
  assert.throws(() => Q.encode({ type: 'airspaceDefinition', sequence: 1, senderId: 'x', ceilingM: 60, floorM: null,
    marginM: -1, zones: [] }), { code: 'outOfRange' });
});

// A square keep-out zone of 20 m around a point, an inclusion circle of 200 m, a 5 m margin; in Buenos Aires (south
// and west: negative coordinates) and across the antimeridian.
const R = 6371008.8, rad = Math.PI / 180;
const offset = (p, eastM, northM) => [p[0] + northM / R / rad, p[1] + eastM / (R * Math.cos(p[0] * rad)) / rad];
for (const [where, centre] of [['Berlin', [52.5163, 13.3777]], ['Buenos Aires', [-34.6037, -58.3816]],
  ['the antimeridian', [-16.5, 179.9995]], ['60° north', [60.1699, 24.9384]]]) {
  const square = [[-10, -10], [10, -10], [10, 10], [-10, 10]].map(([e, n]) => offset(centre, e, n));
  const airspace = { marginM: 5, zones: [
    { name: 'pond', kind: 'keepOut', shape: 'polygon', rings: [square] },
    { name: 'field', kind: 'inclusion', shape: 'circle', centre, radiusM: 200 }] };
  test(`the page refuses what the controller refuses, near ${where}`, () => {
    assert.equal(Z.judge(airspace, offset(centre, 3, -4)).reason, 'target-refused-keep-out');
    assert.equal(Z.judge(airspace, offset(centre, 3, -4)).zone, 'pond');
    assert.equal(Z.judge(airspace, offset(centre, 13, 0)).reason, 'target-refused-airspace-margin');
    assert.equal(Z.judge(airspace, offset(centre, 16, 0)), null);
    assert.equal(Z.judge(airspace, offset(centre, 0, 197)).reason, 'target-refused-airspace-margin');
    assert.equal(Z.judge(airspace, offset(centre, 0, 190)), null);
    assert.equal(Z.judge(airspace, offset(centre, 250, 0)).reason, 'target-refused-outside-inclusion');
  });
}

test('a hole in a keep-out zone is allowed, keep-out wins over inclusion, several inclusion zones are a union', () => {
  const c = [52.5163, 13.3777];
  const ring = (half) => [[-half, -half], [half, -half], [half, half], [-half, half]].map(([e, n]) => offset(c, e, n));
  const donut = { marginM: 0,
    zones: [{ name: 'ring', kind: 'keepOut', shape: 'polygon', rings: [ring(50), ring(20)] }] };
  assert.equal(Z.judge(donut, c), null);
  assert.equal(Z.judge(donut, offset(c, 30, 0)).reason, 'target-refused-keep-out');
  const both = { marginM: 2, zones: [
    { name: 'a', kind: 'inclusion', shape: 'polygon', rings: [ring(50)] },
    { name: 'b', kind: 'inclusion', shape: 'circle', centre: offset(c, 60, 0), radiusM: 30 },
    { name: 'tree', kind: 'keepOut', shape: 'circle', centre: offset(c, -20, 0), radiusM: 5 }] };
  assert.equal(Z.judge(both, offset(c, 70, 0)), null);              // only in b
  assert.equal(Z.judge(both, offset(c, 50, 0)), null);              // on a's edge, deep inside b
  assert.equal(Z.judge(both, offset(c, -20, 0)).reason, 'target-refused-keep-out');
  assert.equal(Z.judge(both, offset(c, -20, 6)).reason, 'target-refused-airspace-margin');
  assert.equal(Z.judge({ marginM: 0, zones: [] }, c), null);
  assert.equal(Z.judge(null, c), null);
});

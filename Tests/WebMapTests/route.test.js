// The map's route around keep-out zones: the AirspaceRoutePlan codec (web/map/quadproto.js, type 13) against the
// Swift golden fixture, and what the page draws of a route (web/map/zones.js routeLines, routeText).
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
const golden = () => hexFixture(path.join(__dirname, '..', 'QuadProtocolTests', 'Fixtures', 'airspace-route-plan.hex'));
const GOLDEN = { type: 'airspaceRoutePlan', sequence: 5, timestampUs: 1700000000700000, minor: 4, purpose: 'target',
  goal: [52.5168, 13.3785], start: [52.516, 13.376], lengthM: 231.5, straightM: 190.25, nextCorner: 1,
  zoneName: 'lake', corners: [[52.5172, 13.3765], [52.5172, 13.3781]] };

test('the golden AirspaceRoutePlan decodes to its corners and encodes back to the same bytes', () => {
  const m = Q.decode(golden(), 'airspaceRoutePlan');
  assert.deepEqual(m, GOLDEN);
  assert.deepEqual(Q.encode(m), golden());
  const none = { type: 'airspaceRoutePlan', sequence: 1, timestampUs: 0, purpose: 'none', goal: [0, 0], start: [0, 0],
    lengthM: 0, straightM: 0, nextCorner: 0, zoneName: '', corners: [] };
  assert.deepEqual(Q.decode(Q.encode(none)), { ...none, minor: 4 });
  assert.deepEqual(Q.TOPICS.airspaceRoute, { path: 'airspace/route', type: 'airspaceRoutePlan', qos: 1, retain: true });
});

test('a broken AirspaceRoutePlan is refused with the codec\'s errors, never half read', () => {
  const b = golden();
  const mutate = (offset, value) => { const c = Uint8Array.from(b); c[offset] = value; return c; };
  for (let n = 17; n < b.length; n++) assert.throws(() => Q.decode(b.subarray(0, n)), { code: 'bodyTooShort' });
  assert.throws(() => Q.decode(Uint8Array.from([...b, 0])), { code: 'bodyTooLong' });
  assert.throws(() => Q.decode(mutate(17, 3)), { code: 'unknownEnumValue' });     // purpose
  assert.throws(() => Q.decode(mutate(17, 0)), { code: 'outOfRange' });           // none with corners
  assert.throws(() => Q.decode(mutate(66, 3)), { code: 'outOfRange' });           // nextCorner past the goal leg
  assert.throws(() => Q.decode(mutate(72, 65)), { code: 'outOfRange' });          // more than 64 corners
  assert.throws(() => Q.decode(mutate(68, 0xC3)), { code: 'invalidUTF8' });       // zoneName
  const nan = Uint8Array.from(b); new DataView(nan.buffer).setFloat64(50, NaN, true);
  assert.throws(() => Q.decode(nan), { code: 'notFinite' });
  const corners = Array.from({ length: 65 }, () => [1, 2]);
  assert.throws(() => Q.encode({ ...GOLDEN, corners }), { code: 'outOfRange' });
  assert.throws(() => Q.encode({ ...GOLDEN, zoneName: 'x'.repeat(65) }), { code: 'stringLength' });
  assert.throws(() => Q.encode({ ...GOLDEN, nextCorner: 3 }), { code: 'outOfRange' });
  assert.equal(Q.decode(Q.encode({ ...GOLDEN, corners: corners.slice(1), nextCorner: 0 })).corners.length, 64);
  let seed = 38;
  const next = () => (seed = (seed * 1103515245 + 12345) >>> 0) >>> 16;
  for (let i = 0; i < 5000; i++) {
    const c = Uint8Array.from(b);
    for (let k = 0; k < 1 + (next() % 4); k++) c[17 + (next() % (c.length - 17))] = next() & 0xFF;
    try { Q.decode(c); } catch (e) { assert.ok(e instanceof Q.WireError, String(e)); }
  }
});

test('the route is drawn from the drone through the corners left to the goal, the passed ones apart', () => {
  const plan = Q.decode(golden());
  const drone = [52.5171, 13.3770];
  assert.deepEqual(Z.routeLines(plan, drone), {
    ahead: [drone, [52.5172, 13.3781], [52.5168, 13.3785]],
    passed: [[52.516, 13.376], [52.5172, 13.3765]] });
  // At acceptance (leg 1), before the drone flies it: every corner ahead, nothing passed.
  assert.deepEqual(Z.routeLines({ ...plan, nextCorner: 0 }, drone), {
    ahead: [drone, [52.5172, 13.3765], [52.5172, 13.3781], [52.5168, 13.3785]], passed: [] });
  // The last leg: only the goal ahead.
  assert.deepEqual(Z.routeLines({ ...plan, nextCorner: 2 }, drone).ahead, [drone, [52.5168, 13.3785]]);
  // No position yet: from where the route was planned (leg 1) or the last corner passed.
  assert.deepEqual(Z.routeLines({ ...plan, nextCorner: 0 }, null).ahead[0], [52.516, 13.376]);
  assert.deepEqual(Z.routeLines(plan, null).ahead[0], [52.5172, 13.3765]);
  assert.equal(Z.routeLines({ ...plan, purpose: 'none', corners: [] }, drone), null);
  assert.equal(Z.routeLines(null, drone), null);
});

test('the panel says the route as status does', () => {
  const plan = Q.decode(golden());
  assert.equal(Z.routeText(plan), "around 'lake': leg 2 of 3");
  assert.equal(Z.routeText({ ...plan, purpose: 'returnHome', zoneName: '' }), 'home around a zone: leg 2 of 3');
  assert.equal(Z.routeText({ ...plan, purpose: 'none' }), null);
});

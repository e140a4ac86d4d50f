// The map's mission codec (web/map/missionproto.js) against the Swift golden fixtures (Tests/MissionTests/Fixtures).
// Run: node --test Tests/WebMapTests/   (part of `make test`)
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const M = require('../../web/map/missionproto.js');

function fixture(name) {
  const text = fs.readFileSync(path.join(__dirname, '..', 'MissionTests', 'Fixtures', name + '.hex'), 'utf8');
  return Uint8Array.from(text.split('\n').map((l) => l.replace(/#.*/, '')).join(' ').trim().split(/\s+/)
    .map((h) => parseInt(h, 16)));
}

test('CRC-32 is zlib\'s (check value of "123456789")', () => {
  assert.equal(M.crc32(new TextEncoder().encode('123456789')), 0xCBF43926);
});

test('the golden upload decodes to its plan, its checksum checked', () => {
  const m = M.decode(fixture('mission-upload'), 'upload');
  assert.equal(m.senderId, 'ground-laptop');
  assert.equal(m.checksum, 0x0A160777);
  assert.equal(m.plan.cruiseSpeedMps, 4);
  assert.deepEqual(m.plan.items.map((i) => i.kind),
    ['takeoff', 'waypoint', 'changeSpeed', 'loiterTime', 'waypoint', 'land']);
  assert.deepEqual(m.plan.items[1], { id: 1, kind: 'waypoint', point: m.plan.items[1].point, altitudeM: 12, timeS: 5,
    radiusM: 2, speedMps: null });
  assert.equal(m.plan.items[3].timeS, 30);
  assert.equal(m.plan.items[5].point, null);
  const wrong = fixture('mission-upload'); wrong[wrong.length - 1] ^= 1;
  assert.throws(() => M.decode(wrong), { code: 'checksumMismatch' });
});

test('the golden progress decodes; what the page relies on is checked', () => {
  const p = M.decode(fixture('mission-progress'), 'progress');
  assert.deepEqual({ state: p.state, phase: p.phase, currentItem: p.currentItem, stayLeftS: p.stayLeftS },
    { state: 'running', phase: 'staying', currentItem: 3, stayLeftS: 12.5 });
  assert.deepEqual(p.reached.map((r) => r.id), [0, 1, 2, 3]);
  const b = fixture('mission-progress');
  assert.throws(() => M.decode(b.subarray(0, b.length - 2)), { code: 'bodyTooShort' });
  assert.throws(() => M.decode(Uint8Array.from([...b, 0])), { code: 'bodyTooLong' });
  const newer = Uint8Array.from([...b, 0]); newer[4] = 1;
  assert.equal(M.decode(newer).currentItem, 3);
  const twice = Uint8Array.from(b); twice[41] = 0;   // the second reached id becomes 0 again
  assert.throws(() => M.decode(twice), { code: 'outOfRange' });
  const state = Uint8Array.from(b); state[9] = 7;
  assert.throws(() => M.decode(state), { code: 'unknownEnumValue' });
  assert.throws(() => M.decode(Uint8Array.from([0xFF, 0x51, 1, 4, 7])), { code: 'badMagic' });
  assert.throws(() => M.decode(Uint8Array.from([0xFF, 0x4D, 3, 2, 0])), { code: 'unsupportedMajorVersion' });
  assert.throws(() => M.decode(b, 'upload'), { code: 'wrongMessageType' });
});

// A .plan dropped on the map (web/map/planfile.js + missionproto.js's encodeUpload) against the Swift parser and
// encoder: the golden uploads (Tests/MissionTests/Fixtures/*-upload.hex, MapPlanDropFixtureTests) are what
// `location-broadcaster mission upload FILE` publishes for the same file with the page's sender id.
// Run: node --test Tests/WebMapTests/
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const P = require('../../web/map/planfile.js');
const M = require('../../web/map/missionproto.js');

const FIXTURES = path.join(__dirname, '..', 'MissionTests', 'Fixtures');
const SENDER = 'map-0123abcd';   // MapPlanDropFixtureTests.pageSender
function hex(name) {
  const text = fs.readFileSync(path.join(FIXTURES, name + '.hex'), 'utf8');
  return Uint8Array.from(text.split('\n').map((l) => l.replace(/#.*/, '')).join(' ').trim().split(/\s+/)
    .map((h) => parseInt(h, 16)));
}
const file = (name) => new Uint8Array(fs.readFileSync(path.join(FIXTURES, name)));
const text = (s) => new TextEncoder().encode(s);
const planWith = (items, extra = '') => text('{"fileType": "Plan", "mission": {' + extra + '"items": [' + items
  + ']}, "version": 1}');
const wp = (params, command = 16, frame = 3) => JSON.stringify({ type: 'SimpleItem', command, frame, params });

for (const name of ['tiergarten', 'map-drop']) {
  test(`${name}.plan encodes to the Swift encoder's bytes (${name}-upload.hex)`, () => {
    const upload = M.encodeUpload(SENDER, P.parse(file(name + '.plan')));
    assert.deepEqual(Array.from(upload.bytes), Array.from(hex(name + '-upload')));
    assert.equal(upload.checksum, M.decode(upload.bytes, 'upload').checksum);
  });
}

test('map-drop.plan: holds truncated to whole ms (1.001 s: 1000, as Swift), radius 0 is 1 m, land in place', () => {
  const plan = P.parse(file('map-drop.plan'));
  assert.deepEqual(plan.items.map((i) => i.timeMs), [0, 100, 0, 5000, 1000, 0, 0, 0]);
  assert.equal(plan.items[1].radiusM, 1);
  assert.equal(plan.items[7].point, null);
  assert.equal(plan.cruiseSpeedMps, 3.3);
});

function refused(bytes, message) {
  assert.throws(() => P.parse(bytes), (e) => e instanceof P.PlanError && (message instanceof RegExp
    ? message.test(e.message) : e.message === message), String(message));
}

test('an unknown command is refused with its item index and number, as the Swift parser says it', () => {
  refused(file('unknown-command.plan'), 'item 2: MAVLink command 183 is not supported');
  refused(file('survey.plan'), 'item 1: complex item \'survey\' is not supported');
});

test('malformed files are refused with where and why', () => {
  refused(text('not json'), /^plan at the document: not JSON/);
  refused(text('\uFEFF{"fileType": "Plan"}'), /^plan at the document: not JSON/);
  refused(text('[' .repeat(40) + ']'.repeat(40)), /^plan at the document: not JSON/);
  refused(Uint8Array.from([0x7B, 0xFF, 0x7D]), /^plan at the document: not JSON/);
  refused(text('{"fileType": "KML"}'), 'plan at fileType: expected "Plan" (is this a .plan file?)');
  refused(text('{"fileType": "Plan", "mission": []}'), 'plan at mission: expected an object');
  refused(text('{"fileType": "Plan", "mission": {}}'), 'plan at mission.items: expected an array');
  refused(planWith('7'), 'plan at mission.items[0].type: expected "SimpleItem" or "ComplexItem"');
  refused(planWith(wp([0, 0, 0, 0, 52.5, 13.3, 10], 16.5)),
    'plan at mission.items[0].command: expected an integer');
  refused(planWith(wp([0, 0, 0, 52.5, 13.3, 10])),
    'plan at mission.items[0].params: expected an array of 7 numbers or nulls');
  refused(planWith(wp([0, 0, 0, 0, 52.5, 13.3, 10], 16, 0)),
    'item 0: frame 0 is not supported (only 3, altitude relative to home)');
  refused(planWith(wp([0, 0, 0, 0, 52.5, '13.3', 10])),
    'plan at mission.items[0].params[5]: expected a finite number');
});

test('NaN and infinite numbers are refused (null where a number is needed, 1e400)', () => {
  refused(planWith(wp([0, 0, 0, 0, null, 13.3, 10])), 'plan at mission.items[0].params[4]: expected a finite number');
  refused(text('{"fileType": "Plan", "mission": {"items": [' + wp([0, 0, 0, 0, 52.5, 13.3, 10])
    .replace('10]', '1e400]') + ']}}'), 'plan at mission.items[0].params[6]: expected a finite number');
  refused(text('{"fileType": "Plan", "mission": {"items": [], "hoverSpeed": NaN}}'), /^plan at the document/);
  refused(planWith(wp([0, 0, 0, 0, 52.5, 13.3, 10]), '"hoverSpeed": null, '),
    'plan at mission.hoverSpeed: expected a finite number');
});

test('the rules every board holds refuse the plan, naming the item', () => {
  refused(planWith(''), 'the plan has no items');
  refused(planWith(Array(101).fill(wp([0, 0, 0, 0, 52.5, 13.3, 10])).join(',')),
    'the plan has 101 items; the board keeps at most 100');
  refused(planWith(wp([0, 0, 0, 0, 91, 13.3, 10])), 'item 0: latitude 91.0 is outside -90...90');
  refused(planWith(wp([0, 0, 0, 0, 52.5, 13.3, -1])), 'item 0: altitude -1.0 is outside 0...10000 m');
  refused(planWith(wp([-2, 0, 0, 0, 52.5, 13.3, 1])), 'item 0: hold time -2.0 is outside 0...86400 s');
  refused(planWith(wp([0, 2000, 0, 0, 52.5, 13.3, 1])),
    'item 0: acceptance radius 2000.0 is outside (0, 1000] m');
  refused(planWith(wp([0, 60, 0, 0, 0, 0, 0], 178, 2)), 'item 0: speed 60.0 is outside (0, 50.0] m/s');
  refused(planWith([wp([0, 0, 0, 0, 0, 0, 0], 20, 2), wp([0, 0, 0, 0, 52.5, 13.3, 1])].join(',')),
    'item 1 follows a land or return item; nothing after those is flown');
  refused(planWith(wp([0, 0, 0, 0, 52.5, 13.3, 1]), '"cruiseSpeed": 0, '),
    'the plan\'s cruise speed 0.0 is outside (0, 50.0] m/s');
});

test('a file over the page\'s limit is refused before it is read as JSON', () => {
  refused(new Uint8Array(P.MAX_FILE_BYTES + 1).fill(0x20),
    /^the file has 1048577 bytes; the page reads plans of at most/);
});

test('the board\'s mission/status decodes: held plan, refusal with item and reason', () => {
  const reason = new TextEncoder().encode('item 1: 500 m from home, outside the 200 m fence');
  const status = Uint8Array.from([0xFF, 0x4D, 4, 1, 0, 7, 0, 0, 0, 3, 0x78, 0x56, 0x34, 0x12, 0xEF, 0xBE, 0xAD, 0xDE,
    1, 0, reason.length, ...reason]);
  const s = M.decode(status, 'status');
  assert.deepEqual({ sequence: s.sequence, held: s.heldChecksum, refusal: s.refusal }, { sequence: 7,
    held: 0x12345678, refusal: { planChecksum: 0xDEADBEEF, item: 1, reason: new TextDecoder().decode(reason) } });
  const none = M.decode(Uint8Array.from([0xFF, 0x4D, 4, 1, 0, 1, 0, 0, 0, 0]), 'status');
  assert.deepEqual([none.heldChecksum, none.refusal], [null, null]);
  assert.throws(() => M.decode(Uint8Array.from([0xFF, 0x4D, 4, 1, 0, 1, 0, 0, 0, 4]), 'status'));
});

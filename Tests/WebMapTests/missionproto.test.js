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

// The mission buttons' commands against the Swift encoder's (MapMissionCommandFixtureTests, MissionWireTests).
const PAGE_SENDER = 'map-0123abcd';   // MapPlanDropFixtureTests.pageSender
const tiergarten = () => M.decode(fixture('tiergarten-upload'), 'upload').checksum;

test('encodeCommand writes the Swift encoder\'s bytes (map-command-goto, map-command-abort, mission-command)', () => {
  assert.deepEqual(M.encodeCommand(PAGE_SENDER, 'goto', 3, tiergarten()), fixture('map-command-goto'));
  assert.deepEqual(M.encodeCommand(PAGE_SENDER, 'abort', 0, tiergarten()), fixture('map-command-abort'));
  assert.deepEqual(M.encodeCommand(PAGE_SENDER, 'abort', undefined, tiergarten()), fixture('map-command-abort'));
  assert.deepEqual(M.encodeCommand('ground-laptop', 'goto', 3, 0x12345678), fixture('mission-command'));
  assert.deepEqual(M.decode(fixture('map-command-goto'), 'command'), { kind: 'command', minor: 0,
    senderId: PAGE_SENDER, command: 'goto', item: 3, planChecksum: tiergarten() });
});

test('every command round-trips with its byte; the extremes of sender, item and checksum are taken', () => {
  for (const [word, code] of Object.entries(M.COMMANDS)) {
    const bytes = M.encodeCommand('a', word, word === 'goto' ? 99 : 0, 0xFFFFFFFF);
    assert.equal(bytes[7], code);
    const m = M.decode(bytes, 'command');
    assert.deepEqual([m.command, m.item, m.planChecksum], [word, word === 'goto' ? 99 : 0, 0xFFFFFFFF]);
  }
  const longest = 'é'.repeat(32);   // 64 UTF-8 bytes
  assert.equal(M.decode(M.encodeCommand(longest, 'start', 0, 0), 'command').senderId, longest);
});

test('bad input is refused with a thrown Error, as the Swift encoder refuses it', () => {
  const refused = (f, code) => assert.throws(f, (e) => e instanceof Error && e.code === code);
  refused(() => M.encodeCommand('', 'start', 0, 1), 'stringLength');
  refused(() => M.encodeCommand('é'.repeat(32) + 'x', 'start', 0, 1), 'stringLength');
  refused(() => M.encodeCommand(null, 'start', 0, 1), 'stringLength');
  for (const kind of ['launch', 'toString', 'constructor', 5, null, undefined]) {
    refused(() => M.encodeCommand('a', kind, 0, 1), 'unknownEnumValue');
  }
  for (const item of [-1, 100, 1.5, NaN, '3', null, undefined]) refused(() => M.encodeCommand('a', 'goto', item, 1),
    'outOfRange');
  for (const item of [1, 99, -1, '0']) refused(() => M.encodeCommand('a', 'pause', item, 1), 'outOfRange');
  for (const checksum of [-1, 2 ** 32, 1.5, NaN, '1', null]) refused(() => M.encodeCommand('a', 'start', 0, checksum),
    'outOfRange');
});

test('a command with a wrong item or kind byte does not decode (the board\'s rules)', () => {
  const pauseWithItem = Uint8Array.from(fixture('map-command-goto')); pauseWithItem[18] = 2;
  assert.throws(() => M.decode(pauseWithItem), { code: 'outOfRange' });
  const kind = Uint8Array.from(fixture('map-command-goto')); kind[18] = 9;
  assert.throws(() => M.decode(kind), { code: 'unknownEnumValue' });
  const far = Uint8Array.from(fixture('map-command-goto')); far[19] = 100;
  assert.throws(() => M.decode(far), { code: 'outOfRange' });
});

// The board's answer to a button, as the page judges it (commandAnswer, commandTimeout).
const record = (state, currentItem = 1, extra = {}) => Object.assign({ planChecksum: 7, state, phase: 'approaching',
  currentItem, reached: [{ id: 0 }] }, extra);
const waitFor = (command, before, item = 0) => ({ command, item, checksum: 7, before, statusSequence: 4 });
const refusal = (sequence, reason, planChecksum = 7) => ({ sequence, heldChecksum: 7,
  refusal: { planChecksum, item: null, reason } });

test('a state the command asks for counts only when it was not so before the press', () => {
  const idle = record('idle', 0, { reached: [] });
  assert.deepEqual(M.commandAnswer(waitFor('start', idle), record('running', 0), null),
    { ok: true, text: 'running, item 0 (approaching), 1 reached' });
  assert.equal(M.commandAnswer(waitFor('start', record('running')), record('running'), null), null);
  assert.equal(M.commandAnswer(waitFor('pause', record('paused')), record('paused'), null), null);
  assert.equal(M.commandAnswer(waitFor('pause', record('running')), record('paused'), null).ok, true);
  assert.equal(M.commandAnswer(waitFor('resume', record('paused')), record('running'), null).ok, true);
  assert.equal(M.commandAnswer(waitFor('resume', record('running')), record('running'), null), null);
  assert.equal(M.commandAnswer(waitFor('abort', record('running')), record('aborted'), null).ok, true);
  assert.equal(M.commandAnswer(waitFor('abort', record('aborted')), record('aborted'), null), null);
  assert.equal(M.commandAnswer(waitFor('start', record('aborted')), record('running'), null).ok, true);
  // Progress for another plan is no answer.
  assert.equal(M.commandAnswer(waitFor('pause', record('running')), record('paused', 1, { planChecksum: 8 }), null),
    null);
});

test('goto: the item current (or passed over at once) and a change seen; else only a timeout, never success', () => {
  const running = record('running', 3, { reached: [{ id: 0 }, { id: 1 }, { id: 2 }] });
  assert.equal(M.commandAnswer(waitFor('goto', running, 1), record('running', 1), null).ok, true);
  assert.equal(M.commandAnswer(waitFor('goto', running, 2), record('running', 4), null).ok, true);
  assert.equal(M.commandAnswer(waitFor('goto', running, 1), running, null), null);
  assert.equal(M.commandAnswer(waitFor('goto', record('completed', 1)), record('completed', 1), null), null);
  const same = waitFor('goto', running, 3);
  assert.equal(M.commandAnswer(same, running, null), null);
  assert.match(M.commandTimeout(same, running, 10), /^no refusal from drone-controller in 10 s; it was at item 3/);
  assert.match(M.commandTimeout(waitFor('pause', running), running, 10),
    /^no answer from drone-controller in 10 s .*; now running, item 3 \(approaching\), 3 reached$/);
  assert.doesNotMatch(M.commandTimeout(waitFor('pause', running), null, 10), /now/);
});

test('a new status refusing the plan is the answer, with its reason; an old or another plan\'s is not', () => {
  const w = waitFor('start', record('running'));
  assert.deepEqual(M.commandAnswer(w, record('running'), refusal(5, 'refused: already-started')),
    { ok: false, text: 'refused by drone-controller — refused: already-started' });
  assert.equal(M.commandAnswer(w, record('running'), refusal(4, 'refused: already-started')), null);
  assert.equal(M.commandAnswer(w, record('running'), refusal(5, 'x', 8)), null);
  assert.equal(M.commandAnswer(w, record('running'), { sequence: 5, heldChecksum: 7, refusal: null }), null);
  const first = Object.assign(waitFor('pause', record('running')), { statusSequence: null });
  assert.equal(M.commandAnswer(first, record('running'), refusal(1, "pause refused: 'phone' holds pilot control")).text,
    "refused by drone-controller — pause refused: 'phone' holds pilot control");
});

// mission/autopilot about the plan shown, in `mission status`'s words (MissionControlCommand.autopilotLine).
test("the autopilot's own mission: holds this plan, not in place with the reason, another plan, none", () => {
  assert.equal(M.autopilotLine({ sequence: 1, heldChecksum: 7, refusal: null }, 7),
    "autopilot's own mission: holds this plan (it can finish it if the board dies)");
  assert.equal(M.autopilotLine(refusal(2, 'differs: item 3', 7), 8), "autopilot's own mission: not (yet) this plan");
  assert.equal(M.autopilotLine({ sequence: 3, heldChecksum: null,
    refusal: { planChecksum: 8, item: null, reason: 'no answer' } }, 8),
  "autopilot's own mission: not in place: no answer");
  assert.equal(M.autopilotLine(null, 7), null);
});

// The map page's words (web/map/vocabulary.js, generated from the Swift tables; MapVocabularyTests checks the file
// is what they generate). Here: the questions app.js and quadproto.js ask of it answer as the Swift types do.
// Run: node --test Tests/WebMapTests/   (part of `make test`)
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const R = require('../../web/map/vocabulary.js');

test('what a reason answers, as Reason.answers', () => {
  assert.equal(R.answers('not-pilot', 'land'), true);
  assert.equal(R.answers('not-pilot', 'target'), true);
  assert.equal(R.answers('not-pilot', 'release'), true);
  assert.equal(R.answers('command-for-previous-run', 'hover'), true);
  assert.equal(R.answers('command-for-previous-run', 'target'), false);
  assert.equal(R.answers('takeoff-refused-battery-low', 'takeoff'), true);
  assert.equal(R.answers('takeoff-refused-battery-low', 'land'), false);
  assert.equal(R.answers('takeoff-timeout', 'takeoff'), true);
  assert.equal(R.answers('land', 'land'), true);
  assert.equal(R.answers('landed', 'land'), false);
  assert.equal(R.answers('new-target', 'target'), true);
  assert.equal(R.answers('target-refused-geofence', 'target'), true);
  assert.equal(R.answers('control-released', 'release'), true);
  assert.equal(R.answers('claim-refused', 'takeoff'), false);
  assert.equal(R.answers('stale-navigation', 'target'), false);
});

test('refusals, failures and texts', () => {
  assert.equal(R.isRefusal('target-refused-geofence'), true);
  assert.equal(R.isRefusal('claim-invalid-sender'), true);
  assert.equal(R.isRefusal('takeoff-timeout'), false);
  assert.equal(R.isFailure('takeoff-timeout'), true);
  assert.equal(R.isFailsafe('pilot-lost-return'), true);
  assert.equal(R.text('target-refused-geofence'), 'target refused: outside the geofence');
});

test('a code unknown to this version answers nothing and is shown as it came', () => {
  for (const code of ['future-failsafe', 'target', undefined, null, 7]) {
    assert.equal(R.known(code), false);
    assert.equal(R.isRefusal(code), false);
    assert.equal(R.answers(code, 'takeoff'), false);
  }
  assert.equal(R.text('future-failsafe'), "reason 'future-failsafe' (unknown to this version)");
  assert.equal(R.known('__proto__'), false);
  assert.equal(R.known('toString'), false);
});

test('activity and link labels, as `location-broadcaster status` prints them', () => {
  assert.equal(R.activityText('flyingToTarget'), 'flying to target');
  assert.equal(R.activityText('emergency'), 'EMERGENCY');
  assert.equal(R.activityText('unknown'), 'unknown (no navdata yet)');
  assert.equal(R.linkReasonText('navdataLost'), 'NAVDATA LOST');
  assert.equal(R.linkReasonText('commandTimeout'), 'command timeout');
  // A name this version does not know (or none) is shown as it came.
  assert.equal(R.activityText('somersault'), 'somersault');
  assert.equal(R.activityText('__proto__'), '__proto__');
  assert.equal(R.linkReasonText(undefined), 'undefined');
});

test("the codec's enum values come from the same tables", () => {
  assert.deepEqual(R.wireValues(R.LINK_REASONS), { 0: 'ok', 1: 'navdataLost', 2: 'commandTimeout', 3: 'configuring' });
  assert.equal(R.wireValues(R.ACTIVITIES)[9], 'unknown');
  assert.equal(Object.keys(R.ACTIVITIES).length, 9);
});

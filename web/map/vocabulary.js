// The page's words for what the services send: GENERATED from the Swift tables in Shared/Leaf/QuadProtocol
// (Reason.table; ControllerState.Activity and LinkStatus.Reason with their `label`, Labels.swift) by
// Tests/QuadProtocolTests/MapVocabularyTests.swift, which checks that this file is what it generates. Do not
// edit: change the Swift tables, then rewrite this file with
// QUAD_WRITE_REASON_TABLES=1 swift test --skip-build --filter MapVocabularyTests
(function (root) {
  'use strict';

  // The controller's reasons (ControllerState.reason). code: [outcome, answers, text]. outcome: accepted,
  // refused, failed (taken, then given up), failsafe, event. answers: the request it answers: a command's word,
  // command (every command), target, claim (claim or release), any (every request), '' (none).
  const REASONS = {
    '': ['event', '', "no reason given yet"],
    'takeoff': ['accepted', 'takeoff', "takeoff accepted: taking off"],
    'land': ['accepted', 'land', "land accepted: landing"],
    'hover': ['accepted', 'hover', "hover accepted: holding position"],
    'emergency': ['accepted', 'emergency', "emergency ordered: motors cut"],
    'reset': ['accepted', 'reset', "reset accepted: recovering from the emergency"],
    'flat-trim': ['accepted', 'flat-trim', "flat trim accepted: sensors levelled"],
    'return': ['accepted', 'return', "return accepted: flying home"],
    'new-target': ['accepted', 'target', "new target accepted: flying to it"],
    'target-stored': ['accepted', 'target', "target kept for the next takeoff"],
    'target-around-zone': ['accepted', 'target',
      "new target accepted: flying to it around a keep-out zone, leg by leg"],
    'control-granted': ['accepted', 'claim', "pilot control granted"],
    'control-released': ['accepted', 'claim', "pilot control released"],
    'not-pilot': ['refused', 'any', "refused: another sender holds pilot control"],
    'command-retained': ['refused', 'command', "command refused: a retained command is never obeyed"],
    'command-expired-in-queue': ['refused', 'command', "command refused: it waited too long on the way"],
    'command-for-previous-run': ['refused', 'command', "command refused: sent to an earlier run of the controller"],
    'takeoff-refused-emergency': ['refused', 'takeoff', "takeoff refused: in emergency (reset first)"],
    'takeoff-refused-no-drone-state': ['refused', 'takeoff', "takeoff refused: no telemetry from the drone"],
    'takeoff-refused-battery-low': ['refused', 'takeoff', "takeoff refused: battery low"],
    'takeoff-refused-ground-link-lost': ['refused', 'takeoff', "takeoff refused: the ground link is lost (no beacon)"],
    'land-refused-emergency': ['refused', 'land', "land refused: in emergency (reset first)"],
    'hover-refused-not-airborne': ['refused', 'hover', "hover refused: not in the air"],
    'hover-refused-emergency': ['refused', 'hover', "hover refused: in emergency"],
    'hover-refused-returning-home': ['refused', 'hover', "hover refused: returning home (land or wait)"],
    'hover-refused-no-drone-state': ['refused', 'hover',
      "hover refused: no telemetry from the drone yet (whether it flies is unknown)"],
    'reset-refused-not-in-emergency': ['refused', 'reset', "reset refused: not in emergency"],
    'flat-trim-refused-not-landed': ['refused', 'flat-trim', "flat trim refused: not landed"],
    'return-refused-emergency': ['refused', 'return', "return refused: in emergency"],
    'return-refused-not-airborne': ['refused', 'return', "return refused: not in the air"],
    'return-refused-no-home': ['refused', 'return',
      "return refused: no home position recorded (restarted without flight memory?)"],
    'return-refused-not-progressing': ['refused', 'return', "return refused: the last return made no progress"],
    'return-refused-no-drone-state': ['refused', 'return',
      "return refused: no telemetry from the drone yet (whether it flies is unknown)"],
    'target-retained': ['refused', 'target', "target refused: a retained target is never flown"],
    'target-expired-in-queue': ['refused', 'target', "target refused: it waited too long on the way"],
    'target-invalid': ['refused', 'target', "target refused: invalid values"],
    'target-invalid-altitude': ['refused', 'target', "target refused: negative or non-finite altitude"],
    'target-for-previous-run': ['refused', 'target', "target refused: sent to an earlier run of the controller"],
    'target-refused-emergency': ['refused', 'target', "target refused: in emergency"],
    'target-refused-battery-low': ['refused', 'target', "target refused: battery low, the failsafe runs its course"],
    'target-refused-geofence': ['refused', 'target', "target refused: outside the geofence"],
    'target-refused-ceiling': ['refused', 'target', "target refused: above the maximum altitude"],
    'target-refused-keep-out': ['refused', 'target', "target refused: inside a keep-out zone"],
    'target-refused-outside-inclusion': ['refused', 'target', "target refused: outside every inclusion zone"],
    'target-refused-airspace-margin': ['refused', 'target',
      "target refused: closer to a zone's edge than the airspace's margin"],
    'target-refused-airspace-ceiling': ['refused', 'target', "target refused: above the airspace's ceiling"],
    'target-refused-airspace-floor': ['refused', 'target', "target refused: below the airspace's floor"],
    'target-refused-airspace-leg': ['refused', 'target',
      "target refused: the straight leg to it meets a keep-out zone or leaves the inclusion zones"],
    'claim-invalid-sender': ['refused', 'claim', "claim refused: invalid sender id"],
    'claim-retained': ['refused', 'claim', "claim refused: a retained claim is never obeyed"],
    'claim-refused': ['refused', 'claim', "claim refused: another sender holds pilot control"],
    'claim-for-previous-run': ['refused', 'claim', "claim refused: sent to an earlier run of the controller"],
    'position-invalid': ['refused', '', "position fix refused: invalid values (not published)"],
    'navigation-invalid': ['refused', '', "navigation solution refused: invalid values (not published)"],
    'navigation-target-mismatch': ['refused', '', "navigation solution refused: for another target (not published)"],
    'airspace-invalid': ['refused', '',
      "airspace upload refused: invalid zones (in the airspace status, not the controller's)"],
    'mission-upload-refused': ['refused', '',
      "mission upload refused: breaks the board's limits, or a mission is under way (the item in the log)"],
    'mission-command-refused': ['refused', '',
      "mission command refused: for another plan, not the pilot's, or not now (why in the log)"],
    'takeoff-timeout': ['failed', 'takeoff', "takeoff failed: not confirmed, or its climb not over, in time; landing"],
    'takeoff-aborted-drone-link-lost': ['failed', 'takeoff', "takeoff aborted: drone telemetry lost; landing"],
    'target-expired': ['failed', 'target', "the target's time to live ran out: hovering"],
    'drone-link-lost': ['failsafe', '', "drone telemetry lost: hovering"],
    'stale-position': ['failsafe', '', "no fresh position fix: hovering"],
    'stale-navigation': ['failsafe', '', "no fresh navigation solution: hovering"],
    'drone-emergency': ['failsafe', '', "the drone reports an emergency"],
    'pilot-lost': ['failsafe', '', "the pilot went offline: hovering"],
    'pilot-lost-return': ['failsafe', '', "the pilot is still offline: returning home"],
    'ground-link-lost': ['failsafe', '', "no ground beacon: hovering"],
    'ground-link-lost-return': ['failsafe', '', "still no ground beacon: returning home"],
    'geofence': ['failsafe', '', "outside the geofence: returning inside or landing"],
    'battery-low': ['failsafe', '', "battery low: landing"],
    'battery-low-return': ['failsafe', '', "battery low: returning home while it can"],
    'battery-low-cannot-return': ['failsafe', '', "battery low and too far to return: landing here"],
    'wind-too-strong': ['failsafe', '', "wind too strong to fly home against: landing"],
    'return-home-not-progressing': ['failsafe', '', "the return home made no progress: hovering, then landing"],
    'target-not-progressing': ['failsafe', '', "the flight to the target made no progress: hovering"],
    'airspace-brake': ['failsafe', '',
      "about to come within half the margin of a zone: braked to a hover, target dropped"],
    'airspace-breach': ['failsafe', '',
      "in a zone it may not be in, or within half its margin: flying out (or landing)"],
    'mission-battery-return': ['failsafe', '',
      "the battery no longer covers the rest of the mission: mission aborted, returning home"],
    'airborne': ['event', '', "the drone reports flying"],
    'arrived': ['event', '', "arrived at the target"],
    'left-arrival-radius': ['event', '', "drifted off the target: flying back"],
    'navigation-resumed': ['event', '', "navigation solutions are back: flying on"],
    'back-inside-geofence': ['event', '', "back inside the geofence"],
    'clear-of-airspace-zone': ['event', '', "out of the zone and its margin: hovering"],
    'target-awaiting-airspace-paths': ['event', '',
      "hovering, target kept: its leg meets a zone and the paths around the zones are still being built"],
    'home-reached': ['event', '', "over home: hovering before landing"],
    'returned-home': ['event', '', "returned home: landing"],
    'landed': ['event', '', "landed"],
    'drone-landing': ['event', '', "the drone reports landing"],
    'drone-landed': ['event', '', "the drone reports landed"],
    'drone-airborne': ['event', '', "found flying after a restart: landing"],
    'reset-complete': ['event', '', "recovered from the emergency: landed"],
    'pilot-back': ['event', '', "the pilot is back online"],
    'ground-link-back': ['event', '', "ground beacons are back"],
    'resumed-in-flight': ['event', '', "controller restarted in flight: hovering"],
    'resumed-landing': ['event', '', "controller restarted while landing: landing"],
    'resumed-return': ['event', '', "controller restarted while returning: returning home"],
    'resumed-target': ['event', '', "controller restarted: flying on to the target"],
    'resumed-target-expired': ['event', '', "controller restarted: the target had expired, hovering"],
  };

  // The controller's activity (ControllerState.Activity): name: [wire value, label].
  const ACTIVITIES = {
    'landed': [1, "landed"],
    'takingOff': [2, "taking off"],
    'hovering': [3, "hovering"],
    'flyingToTarget': [4, "flying to target"],
    'arrived': [5, "arrived"],
    'landing': [6, "landing"],
    'emergency': [7, "EMERGENCY"],
    'returningHome': [8, "returning home"],
    'unknown': [9, "unknown (no navdata yet)"],
  };

  // The vehicle link's health (LinkStatus.Reason): name: [wire value, label].
  const LINK_REASONS = {
    'ok': [0, "ok"],
    'navdataLost': [1, "NAVDATA LOST"],
    'commandTimeout': [2, "command timeout"],
    'configuring': [3, "configuring"],
  };

  const own = (table, key) => typeof key === 'string' && Object.prototype.hasOwnProperty.call(table, key);
  const row = (code) => (own(REASONS, code) ? REASONS[code] : null);
  const outcome = (code) => { const r = row(code); return r ? r[0] : 'event'; };
  // Plain words; a code unknown to this version (a newer controller) is shown as it came.
  const text = (code) => {
    const r = row(code);
    return r ? r[2] : "reason '" + code + "' (unknown to this version)";
  };
  const isRefusal = (code) => outcome(code) === 'refused';
  const isFailure = (code) => outcome(code) === 'failed';
  const isFailsafe = (code) => outcome(code) === 'failsafe';
  // Whether the reason answers `what`: a command's word, 'target', 'claim' or 'release' (Reason.answers).
  function answers(code, what) {
    const r = row(code);
    const subject = r ? r[1] : '';
    const request = what === 'release' ? 'claim' : what;
    if (subject === '' || !request) return false;
    if (subject === 'any' || subject === request) return true;
    return subject === 'command' && request !== 'target' && request !== 'claim';
  }
  // An activity's or a link reason's label, by the name the codec gives it; any other value as it came.
  const activityText = (name) => (own(ACTIVITIES, name) ? ACTIVITIES[name][1] : String(name));
  const linkReasonText = (name) => (own(LINK_REASONS, name) ? LINK_REASONS[name][1] : String(name));
  // A table's wire values for the codec's enums (quadproto.js): { value: name }.
  const wireValues = (table) => Object.fromEntries(Object.keys(table).map((name) => [table[name][0], name]));

  const api = { REASONS, ACTIVITIES, LINK_REASONS, known: (code) => row(code) !== null, outcome, text,
    isRefusal, isFailure, isFailsafe, answers, activityText, linkReasonText, wireValues };
  if (typeof module !== 'undefined' && module.exports) module.exports = api;
  else root.QuadVocabulary = api;
})(typeof self !== 'undefined' ? self : this);

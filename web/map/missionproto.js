// The mission payloads (PROTOCOL.md "Missions": their own 5-byte header FF 4D kind major minor) for the live map,
// which reads the plan the board holds (mission/upload, retained), its progress (mission/progress, retained) and
// its answer to an upload or a command (mission/status, retained), and writes the upload of a dropped .plan
// (planfile.js) and the mission buttons' commands (mission/command).
// Decoding only what the page shows; every check the page relies on (counts, ranges, the plan's CRC-32) is made,
// and a payload that fails one throws QuadProto's WireError, so the page counts it as bad.
(function (root) {
  'use strict';
  const Q = typeof module !== 'undefined' && module.exports ? require('./quadproto.js') : root.QuadProto;
  const { Reader, WireError, checks } = Q;
  const MAJOR = 1, MINOR = 0, MAX_ITEMS = 100;
  const KINDS = { 1: 'upload', 2: 'command', 3: 'progress', 4: 'status' };
  const KIND_CODES = { takeoff: 1, waypoint: 2, loiterTime: 3, changeSpeed: 4, land: 5, returnToLaunch: 6 };
  const ITEM_KINDS = { 1: 'takeoff', 2: 'waypoint', 3: 'loiterTime', 4: 'changeSpeed', 5: 'land', 6: 'returnToLaunch' };
  const STATES = { 0: 'idle', 1: 'running', 2: 'paused', 3: 'holdingAfterRestart', 4: 'returning', 5: 'completed',
    6: 'aborted' };
  const PHASES = { 0: 'approaching', 1: 'takingOff', 2: 'staying', 3: 'landing' };
  // MissionCommand.swift's WireKind: the command's word and its byte.
  const COMMANDS = { start: 1, pause: 2, resume: 3, abort: 4, goto: 5 };
  const COMMAND_WORDS = { 1: 'start', 2: 'pause', 3: 'resume', 4: 'abort', 5: 'goto' };

  // CRC-32 (IEEE, zlib's): the plan's checksum over its canonical encoding.
  const CRC_TABLE = (() => {
    const t = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xEDB88320 ^ (c >>> 1) : c >>> 1;
      t[n] = c >>> 0;
    }
    return t;
  })();
  function crc32(bytes) {
    let c = 0xFFFFFFFF;
    for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xFF] ^ (c >>> 8);
    return (c ^ 0xFFFFFFFF) >>> 0;
  }

  function header(bytes, what) {
    if (bytes.length < 5) throw new WireError('truncatedHeader', what);
    if (bytes[0] !== 0xFF || bytes[1] !== 0x4D) throw new WireError('badMagic', what);
    if (!(bytes[2] in KINDS)) throw new WireError('unknownMessageType', 'mission kind ' + bytes[2]);
    if (bytes[3] !== MAJOR) throw new WireError('unsupportedMajorVersion', String(bytes[3]));
    return { kind: KINDS[bytes[2]], minor: bytes[4] };
  }

  // The canonical plan (23 + 32 n bytes): { cruiseSpeedMps, plannedHome, items: [{ id, kind, point, altitudeM,
  // timeS, radiusM, speedMps }] }; absent values are null.
  function readPlan(r) {
    const presence = r.u8();
    if (presence & ~3) throw new WireError('unknownPresenceBits', 'plan');
    const cruise = r.f32();
    const home = [r.f64(), r.f64()];
    const n = r.count('items', 'u16', 1, MAX_ITEMS);
    const items = [];
    for (let i = 0; i < n; i++) {
      const id = r.u16();
      if (id !== i) throw new WireError('outOfRange', `item ${i}: id ${id}`);
      const kind = r.enumeration(`item ${i} kind`, ITEM_KINDS);
      const flags = r.u8();
      const point = [r.number('f64', `item ${i} latitudeDeg`, checks.lat),
        r.number('f64', `item ${i} longitudeDeg`, checks.lon)];
      const altitudeM = r.number('f32', `item ${i} altitudeM`, checks.finite);
      const timeMs = r.u32();
      const value = r.number('f32', `item ${i} value`, checks.finite);
      const hasPoint = (flags & 1) === 1;
      items.push({ id, kind, point: hasPoint ? point : null,
        altitudeM: ['takeoff', 'waypoint', 'loiterTime'].includes(kind) ? altitudeM : null,
        timeS: kind === 'waypoint' || kind === 'loiterTime' ? timeMs / 1000 : null,
        radiusM: kind === 'waypoint' ? value : null, speedMps: kind === 'changeSpeed' ? value : null });
    }
    return { cruiseSpeedMps: presence & 1 ? Q.checked('cruiseSpeedMps', cruise, checks.finite) : null,
      plannedHome: presence & 2 ? [Q.checked('home latitude', home[0], checks.lat),
        Q.checked('home longitude', home[1], checks.lon)] : null, items };
  }

  // mission/upload: { kind: 'upload', senderId, plan, checksum }; a checksum that is not the plan's is refused.
  function decodeUpload(r) {
    const senderId = r.str8('senderId', 1, 64);
    const planStart = r.at;
    const plan = readPlan(r);
    const computed = crc32(r.bytes.subarray(planStart, r.at));
    const checksum = r.u32();
    if (checksum !== computed) throw new WireError('checksumMismatch', 'mission plan');
    return { senderId, plan, checksum };
  }

  // mission/progress: the board's MissionProgressRecord.
  function decodeProgress(r) {
    const planChecksum = r.u32();
    const state = r.enumeration('state', STATES);
    const phase = r.enumeration('phase', PHASES);
    const currentItem = r.count('currentItem', 'u16', 0, MAX_ITEMS - 1);
    const stayLeftS = r.u32() / 1000;
    const elapsedS = r.u32() / 1000;
    const remainingDistanceM = r.number('f32', 'remainingDistanceM', checks.atLeast0);
    const remainingTimeS = r.u32() / 1000;
    const count = r.count('reached', 'u16', 0, MAX_ITEMS);
    const reached = [];
    const seen = new Set();
    for (let i = 0; i < count; i++) {
      const id = r.count('reached id', 'u16', 0, MAX_ITEMS - 1);
      if (seen.has(id)) throw new WireError('outOfRange', `item ${id} reached twice`);
      seen.add(id);
      reached.push({ id, atS: r.u32() / 1000, errorM: r.number('f32', 'arrivalErrorM', checks.atLeast0) });
    }
    return { planChecksum, state, phase, currentItem, stayLeftS, elapsedS, remainingDistanceM, remainingTimeS,
      reached };
  }

  // mission/status: { sequence, heldChecksum (null: none), refusal: { planChecksum, item (null: the plan as a
  // whole), reason } or null }.
  function decodeStatus(r) {
    const sequence = r.u32();
    const presence = r.u8();
    if (presence & ~3) throw new WireError('outOfRange', 'status presence ' + presence);
    const heldChecksum = presence & 1 ? r.u32() : null;
    let refusal = null;
    if (presence & 2) {
      const planChecksum = r.u32();
      const item = r.u16();
      if (item !== 0xFFFF && item >= MAX_ITEMS) throw new WireError('outOfRange', 'refused item ' + item);
      refusal = { planChecksum, item: item === 0xFFFF ? null : item, reason: r.str8('reason', 1, 240) };
    }
    return { sequence, heldChecksum, refusal };
  }

  // The canonical plan's bytes (MissionPlan+Encoding.swift): items as readPlan returns them, or as planfile.js
  // makes them (with timeMs, the Swift encoder's whole milliseconds; else timeS is rounded to milliseconds).
  function writePlan(w, plan) {
    w.u8((plan.cruiseSpeedMps != null ? 1 : 0) | (plan.plannedHome ? 2 : 0));
    w.f32(plan.cruiseSpeedMps != null ? plan.cruiseSpeedMps : 0);
    w.f64(plan.plannedHome ? plan.plannedHome[0] : 0);
    w.f64(plan.plannedHome ? plan.plannedHome[1] : 0);
    w.u16(plan.items.length);
    for (const item of plan.items) {
      if (!(item.kind in KIND_CODES)) throw new WireError('unknownEnumValue', 'item kind ' + item.kind);
      w.u16(item.id);
      w.u8(KIND_CODES[item.kind]);
      w.u8(item.point ? 1 : 0);
      w.f64(item.point ? item.point[0] : 0);
      w.f64(item.point ? item.point[1] : 0);
      w.f32(item.altitudeM != null ? item.altitudeM : 0);
      w.u32(item.timeMs != null ? item.timeMs : item.timeS != null ? Math.round(item.timeS * 1000) : 0);
      w.f32(item.kind === 'waypoint' ? item.radiusM : item.kind === 'changeSpeed' ? item.speedMps : 0);
    }
  }

  // mission/upload's bytes for a plan already checked (planfile.js): header, senderId, plan, its CRC-32. Decoded
  // again before it is returned, so what the page sends passes the checks the page reads payloads with.
  function encodeUpload(senderId, plan) {
    const w = new Q.Writer();
    w.bytes([0xFF, 0x4D, 1, MAJOR, MINOR]);
    w.str8('senderId', senderId, 1, 64);
    const planStart = w.out.length;
    writePlan(w, plan);
    const checksum = crc32(w.out.slice(planStart));
    w.u32(checksum);
    const bytes = w.result();
    decode(bytes, 'upload');
    return { bytes, checksum };
  }

  // mission/command: { senderId, command (its word), item (goto's; 0 otherwise), planChecksum }.
  function decodeCommand(r) {
    const senderId = r.str8('senderId', 1, 64);
    const command = r.enumeration('command kind', COMMAND_WORDS);
    const item = r.u16();
    if (command === 'goto' ? item >= MAX_ITEMS : item !== 0) throw new WireError('outOfRange', 'item ' + item);
    return { senderId, command, item, planChecksum: r.u32() };
  }

  // mission/command's bytes, as MissionCommand(senderId:kind:planChecksum:).encoded() writes them. Bad input is
  // refused with a thrown WireError, as the Swift encoder refuses it: a sender of 1…64 UTF-8 bytes, a command word
  // of COMMANDS, goto's item 0…99 (any other command's item is 0, or left out), a checksum u32.
  function encodeCommand(senderId, kind, item, planChecksum) {
    if (typeof kind !== 'string' || !Object.prototype.hasOwnProperty.call(COMMANDS, kind)) {
      throw new WireError('unknownEnumValue', 'mission command ' + String(kind).slice(0, 40));
    }
    const isGoto = kind === 'goto';
    const itemOK = isGoto ? Number.isInteger(item) && item >= 0 && item < MAX_ITEMS : item == null || item === 0;
    if (!itemOK) {
      throw new WireError('outOfRange', 'item ' + String(item).slice(0, 40) + (isGoto ? ' (goto: 0…'
        + (MAX_ITEMS - 1) + ')' : ' (0: not a goto)'));
    }
    if (!Number.isInteger(planChecksum) || planChecksum < 0 || planChecksum > 0xFFFFFFFF) {
      throw new WireError('outOfRange', 'planChecksum ' + String(planChecksum).slice(0, 40));
    }
    const w = new Q.Writer();
    w.bytes([0xFF, 0x4D, 2, MAJOR, MINOR]);
    w.str8('senderId', senderId, 1, 64);
    w.u8(COMMANDS[kind]);
    w.u16(isGoto ? item : 0);
    w.u32(planChecksum);
    const bytes = w.result();
    decode(bytes, 'command');
    return bytes;
  }

  // Decodes a mission/upload, mission/command, mission/progress or mission/status payload: { kind, minor, …fields }.
  function decode(data, expectedKind) {
    const bytes = data instanceof Uint8Array ? data : new Uint8Array(data);
    const h = header(bytes, expectedKind || 'mission');
    if (expectedKind && h.kind !== expectedKind) throw new WireError('wrongMessageType', h.kind);
    const r = new Reader(bytes, 5, 'mission ' + h.kind, h.minor);
    let body;
    if (h.kind === 'upload') body = decodeUpload(r);
    else if (h.kind === 'progress') body = decodeProgress(r);
    else if (h.kind === 'status') body = decodeStatus(r);
    else body = decodeCommand(r);
    // A newer minor may append; at ours nothing may follow (Reader.end compares with the bus's minor, not ours).
    if (h.minor <= MINOR && r.at !== bytes.length) throw new WireError('bodyTooLong', 'mission ' + h.kind);
    return Object.assign({ kind: h.kind, minor: h.minor }, body);
  }

  // ---- the board's answer to a mission command (the page's mission buttons) ----
  // As `location-broadcaster mission start…` waits for it (MissionControlCommand.shows), but never taking a
  // progress that was already so before the press for the answer: every command the board carries out changes the
  // state (start and resume to running from another state, pause to paused, abort to aborted), goto makes the item
  // current. A refusal is a new mission/status (another sequence than at the press) naming the plan.
  // wait: { command, item, checksum, before (the progress at the press, or null), statusSequence (null: none) }.
  const UNDER_WAY = ['running', 'paused', 'holdingAfterRestart', 'returning'];
  function commandShown(wait, p) {
    const was = wait.before && wait.before.planChecksum === wait.checksum ? wait.before : null;
    const changedTo = (state) => p.state === state && (!was || was.state !== state);
    switch (wait.command) {
      case 'start': case 'resume': return changedTo('running');
      case 'pause': return changedTo('paused');
      case 'abort': return changedTo('aborted');
      case 'goto': {
        if (!UNDER_WAY.includes(p.state)) return false;
        // Items that need no flying (a speed change, a takeoff in the air) are passed at once, as the CLI judges.
        const there = p.currentItem === wait.item || (p.currentItem > wait.item && (!was
          || p.currentItem !== was.currentItem));
        return there && (!was || p.currentItem !== was.currentItem || p.phase !== was.phase
          || p.reached.length !== was.reached.length);
      }
      default: return false;
    }
  }
  // "running, item 1 (approaching), 1 reached": the CLI's summary of a progress.
  function progressSummary(p) {
    return p.state + ', item ' + p.currentItem + ' (' + p.phase + '), ' + p.reached.length + ' reached';
  }
  // The answer so far: null (none yet), or { ok, text } (text: the progress's summary, or the board's refusal).
  function commandAnswer(wait, progress, status) {
    if (status && status.sequence !== wait.statusSequence && status.refusal
        && status.refusal.planChecksum === wait.checksum) {
      return { ok: false, text: 'refused by drone-controller — ' + status.refusal.reason };
    }
    if (!progress || progress.planChecksum !== wait.checksum || !commandShown(wait, progress)) return null;
    return { ok: true, text: progressSummary(progress) };
  }
  // What to say when no answer came in time: never success. A goto of the item already current changes nothing
  // to see; with no refusal it is said as such (a warning, not an answer).
  function commandTimeout(wait, progress, seconds) {
    const held = progress && progress.planChecksum === wait.checksum ? progress : null;
    if (wait.command === 'goto' && held && held.currentItem === wait.item && UNDER_WAY.includes(held.state)) {
      return 'no refusal from drone-controller in ' + seconds + ' s; it was at item ' + wait.item
        + ' already: ' + progressSummary(held);
    }
    return 'no answer from drone-controller in ' + seconds + ' s (a login that may not send mission commands is '
      + 'dropped by the broker)' + (held ? '; now ' + progressSummary(held) : '');
  }

  // mission/autopilot (mavlink-link's read-back of the autopilot's own copy) about the plan with `checksum`, worded as
  // `mission status` says it (MissionControlCommand.autopilotLine); null without such a status (an AR.Drone).
  function autopilotLine(status, checksum) {
    if (!status) return null;
    if (status.heldChecksum === checksum) return "autopilot's own mission: holds this plan (it can finish it if the "
      + 'board dies)';
    if (status.refusal && status.refusal.planChecksum === checksum) {
      return "autopilot's own mission: not in place: " + status.refusal.reason;
    }
    return "autopilot's own mission: not (yet) this plan";
  }

  const api = { decode, encodeUpload, encodeCommand, commandAnswer, commandTimeout, progressSummary, autopilotLine,
    crc32, ITEM_KINDS, STATES, PHASES, COMMANDS, MAX_ITEMS };
  if (typeof module !== 'undefined' && module.exports) module.exports = api;
  else root.QuadMission = api;
})(typeof self !== 'undefined' ? self : this);

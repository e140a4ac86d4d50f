// A QGroundControl .plan file read in the page, as Shared/Core/Mission/QGCPlanParser.swift reads it, then checked
// with the rules every board holds (MissionPlan.validateStructure), so that a file dropped on the map becomes the
// same plan, and missionproto.js's encodeUpload the same bytes, as `location-broadcaster mission upload FILE`.
// The file is untrusted: anything the Swift parser or the rules refuse is refused here with the same words (the
// item's index, the MAVLink command's number), and nothing is published. Golden fixtures (Tests/MissionTests/
// Fixtures/*-upload.hex, written by the Swift encoder) hold both sides to the same bytes.
(function (root) {
  'use strict';
  // The page reads at most this much: a 100-item QGroundControl plan is some 50 KB (the CLI's limit is 16 MiB).
  const MAX_FILE_BYTES = 1 << 20;
  const MAX_DEPTH = 32;           // JSONValue.parse(maxDepth: 32)
  const MAX_ITEMS = 100;          // MissionPlan.maxItems
  const RELATIVE_ALTITUDE_FRAME = 3, MISSION_FRAME = 2;
  const SUPPORTED = new Set([22, 16, 19, 178, 21, 20]);
  const DEFAULT_ACCEPTANCE_RADIUS_M = 1;
  const MAX_SPEED_MPS = 50, MAX_STAY_S = 86400, ALTITUDE_RANGE_M = [0, 10000];
  const KIND_BY_COMMAND = { 22: 'takeoff', 16: 'waypoint', 19: 'loiterTime', 178: 'changeSpeed', 21: 'land',
    20: 'returnToLaunch' };

  class PlanError extends Error {
    constructor(message, item) { super(message); this.name = 'PlanError'; this.item = item == null ? null : item; }
  }
  const malformed = (at, reason) => new PlanError('plan at ' + at + ': ' + reason);

  // Swift's "\(double)": integral values keep ".0" (500.0), others the shortest round trip, as JS prints them.
  function swiftNumber(v) {
    if (!Number.isFinite(v)) return Number.isNaN(v) ? 'nan' : v > 0 ? 'inf' : '-inf';
    const sign = v < 0 || Object.is(v, -0) ? '-' : '';
    if (Number.isInteger(v) && Math.abs(v) < 2 ** 53) return sign + Math.abs(v) + '.0';
    return String(v);
  }

  // JSONValue.parse's refusals beyond JSON.parse's: nesting deeper than 32, lone surrogates (invalid text).
  const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?:^|[^\uD800-\uDBFF])[\uDC00-\uDFFF]/;
  function checkDocument(value) {
    const stack = [[value, 1]];
    while (stack.length) {
      const [v, depth] = stack.pop();
      if (typeof v === 'string') { if (LONE_SURROGATE.test(v)) throw new Error('invalid text in a string'); continue; }
      if (v === null || typeof v !== 'object') continue;
      if (depth > MAX_DEPTH) throw new Error('nested deeper than ' + MAX_DEPTH);
      for (const key of Array.isArray(v) ? [] : Object.keys(v)) {
        if (LONE_SURROGATE.test(key)) throw new Error('invalid text in a key');
      }
      for (const child of Object.values(v)) stack.push([child, depth + 1]);
    }
  }

  const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
  const has = (o, k) => isObject(o) && Object.prototype.hasOwnProperty.call(o, k);
  const finite = (v) => typeof v === 'number' && Number.isFinite(v) ? v : null;
  const integer = (v) => finite(v) != null && Number.isInteger(v) && Math.abs(v) < 1e15 ? v : null;
  function number(v, at) {
    if (finite(v) == null) throw malformed(at, 'expected a finite number');
    return v;
  }
  // Duration.seconds(clamping:) then .us / 1000: the Double product in attoseconds truncated, then to whole
  // milliseconds (truncated toward zero), as the Swift encoder's u32 timeMs.
  function durationMs(seconds) {
    const limitS = 100 * 365.25 * 86400;
    const s = Math.min(Math.max(seconds, -limitS), limitS);
    return Number(BigInt(Math.trunc(s * 1e18)) / 1000000000000000n);
  }

  // One mission.items[index] (QGCPlanParser.kind): { kind, point, altitudeM, timeMs, radiusM, speedMps }.
  function item(raw, index) {
    const at = 'mission.items[' + index + ']';
    const type = has(raw, 'type') && typeof raw.type === 'string' ? raw.type : null;
    if (type === 'ComplexItem') {
      const name = has(raw, 'complexItemType') && typeof raw.complexItemType === 'string' ? raw.complexItemType
        : 'unnamed';
      throw new PlanError('item ' + index + ': complex item \'' + Array.from(name).slice(0, 40).join('')
        + '\' is not supported', index);
    }
    if (type !== 'SimpleItem') throw malformed(at + '.type', 'expected "SimpleItem" or "ComplexItem"');
    const command = integer(raw.command);
    if (command == null) throw malformed(at + '.command', 'expected an integer');
    const params = raw.params;
    if (!Array.isArray(params) || params.length !== 7) {
      throw malformed(at + '.params', 'expected an array of 7 numbers or nulls');
    }
    const frame = integer(raw.frame);
    if (frame == null) throw malformed(at + '.frame', 'expected an integer');
    const param = (i) => number(params[i], at + '.params[' + i + ']');
    const optional = (i) => params[i] === null ? null : param(i);
    if (!SUPPORTED.has(command)) {
      throw new PlanError('item ' + index + ': MAVLink command ' + command + ' is not supported', index);
    }
    const positional = [16, 19, 21, 22].includes(command);
    if (!(frame === RELATIVE_ALTITUDE_FRAME || (!positional && frame === MISSION_FRAME))) {
      throw new PlanError('item ' + index + ': frame ' + frame + ' is not supported (only 3, altitude relative to '
        + 'home)', index);
    }
    const base = { kind: KIND_BY_COMMAND[command], point: null, altitudeM: null, timeMs: 0, radiusM: null,
      speedMps: null };
    switch (command) {
      case 22: return Object.assign(base, { altitudeM: param(6) });
      case 16: {
        const radius = optional(1);
        const point = [param(4), param(5)];
        const altitudeM = param(6);
        const hold = optional(0);
        return Object.assign(base, { point, altitudeM, timeMs: durationMs(hold == null ? 0 : hold),
          radiusM: radius == null || radius === 0 ? DEFAULT_ACCEPTANCE_RADIUS_M : radius });
      }
      case 19: {
        const point = [param(4), param(5)];
        const altitudeM = param(6);
        return Object.assign(base, { point, altitudeM, timeMs: durationMs(param(0)) });
      }
      case 178: return Object.assign(base, { speedMps: param(1) });
      case 21: {
        const lat = optional(4), lon = optional(5);
        return Object.assign(base, { point: lat == null || lon == null || (lat === 0 && lon === 0) ? null
          : [lat, lon] });
      }
      default: return base;   // 20, return to launch
    }
  }

  // MissionPlan.validateStructure with the payload's bounds: the first rule broken, in the Swift words.
  function validate(plan) {
    const items = plan.items;
    if (!items.length) throw new PlanError('the plan has no items');
    if (items.length > MAX_ITEMS) {
      throw new PlanError('the plan has ' + items.length + ' items; the board keeps at most ' + MAX_ITEMS);
    }
    const speeds = '(0, ' + swiftNumber(MAX_SPEED_MPS) + ']';
    const c = plan.cruiseSpeedMps;
    if (c != null && !(Number.isFinite(c) && c > 0 && c <= MAX_SPEED_MPS)) {
      throw new PlanError('the plan\'s cruise speed ' + swiftNumber(c) + ' is outside ' + speeds + ' m/s');
    }
    const h = plan.plannedHome;
    if (h && !(Math.abs(h[0]) <= 90 && Math.abs(h[1]) <= 180)) {
      throw new PlanError('the plan\'s planned home ' + swiftNumber(Math.abs(h[0]) <= 90 ? h[1] : h[0])
        + ' is outside -90...90, -180...180');
    }
    items.forEach((it, index) => {
      const fail = (text) => { throw new PlanError('item ' + index + ': ' + text, index); };
      if (index > 0 && ['land', 'returnToLaunch'].includes(items[index - 1].kind)) {
        throw new PlanError('item ' + index + ' follows a land or return item; nothing after those is flown', index);
      }
      if (it.point) {
        if (Math.abs(it.point[0]) > 90) fail('latitude ' + swiftNumber(it.point[0]) + ' is outside -90...90');
        if (Math.abs(it.point[1]) > 180) fail('longitude ' + swiftNumber(it.point[1]) + ' is outside -180...180');
      }
      if (it.altitudeM != null && !(it.altitudeM >= ALTITUDE_RANGE_M[0] && it.altitudeM <= ALTITUDE_RANGE_M[1])) {
        fail('altitude ' + swiftNumber(it.altitudeM) + ' is outside 0...10000 m');
      }
      if (it.timeMs < 0 || it.timeMs > MAX_STAY_S * 1000) {
        fail('hold time ' + swiftNumber(it.timeMs / 1000) + ' is outside 0...' + MAX_STAY_S + ' s');
      }
      if (it.kind === 'waypoint' && !(it.radiusM > 0 && it.radiusM <= 1000)) {
        fail('acceptance radius ' + swiftNumber(it.radiusM) + ' is outside (0, 1000] m');
      }
      if (it.kind === 'changeSpeed' && !(it.speedMps > 0 && it.speedMps <= MAX_SPEED_MPS)) {
        fail('speed ' + swiftNumber(it.speedMps) + ' is outside ' + speeds + ' m/s');
      }
    });
  }

  // The plan of a .plan file's bytes (Uint8Array or ArrayBuffer), checked; throws PlanError with the reason.
  function parse(data) {
    const bytes = data instanceof Uint8Array ? data : new Uint8Array(data);
    if (bytes.length > MAX_FILE_BYTES) {
      throw new PlanError('the file has ' + bytes.length + ' bytes; the page reads plans of at most '
        + MAX_FILE_BYTES + ' bytes');
    }
    let root;
    try {
      // ignoreBOM: a byte-order mark stays and is refused, as the Swift parser refuses it.
      root = JSON.parse(new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes));
      checkDocument(root);
    } catch (e) {
      throw malformed('the document', 'not JSON: ' + String(e && e.message || e).slice(0, 120));
    }
    if (!has(root, 'fileType') || root.fileType !== 'Plan') {
      throw malformed('fileType', 'expected "Plan" (is this a .plan file?)');
    }
    const mission = root.mission;
    if (!isObject(mission)) throw malformed('mission', 'expected an object');
    if (!Array.isArray(mission.items)) throw malformed('mission.items', 'expected an array');
    const items = mission.items.map(item).map((it, id) => Object.assign({ id }, it));
    const speedKey = has(mission, 'hoverSpeed') ? 'hoverSpeed' : has(mission, 'cruiseSpeed') ? 'cruiseSpeed' : null;
    let plannedHome = null;
    const home = mission.plannedHomePosition;
    if (Array.isArray(home) && home.length >= 2) {
      plannedHome = [number(home[0], 'mission.plannedHomePosition[0]'),
        number(home[1], 'mission.plannedHomePosition[1]')];
    }
    const plan = { items, cruiseSpeedMps: speedKey ? number(mission[speedKey], 'mission.' + speedKey) : null,
      plannedHome };
    validate(plan);
    return plan;
  }

  const api = { parse, PlanError, MAX_FILE_BYTES };
  if (typeof module !== 'undefined' && module.exports) module.exports = api;
  else root.QuadPlanFile = api;
})(typeof self !== 'undefined' ? self : this);

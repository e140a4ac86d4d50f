// The live map: every drone under quad/+/ on a Leaflet map, its state in the side panel, and the pilot's actions
// (target by click, takeoff/land/hover/emergency, the mission's buttons). Everything that arrives — payloads,
// topics, URL parameters — is untrusted: a bad payload is counted and shown, never thrown at the page; text goes in
// via textContent only.
(function () {
  'use strict';
  const Q = window.QuadProto;
  const $ = (id) => document.getElementById(id);
  const haveLeaflet = typeof window.L !== 'undefined';
  // The page's words (vocabulary.js, generated from the Swift tables): what a reason answers and whether it
  // refuses, asked of the table, never read from the code's spelling; the activities' and link reasons' labels.
  const WORDS = window.QuadVocabulary;
  // The mission payloads' codec and the airspace's advisory target check (missionproto.js, zones.js).
  const MISSION = window.QuadMission, ZONES = window.QuadZones;
  // The mission topics: the payload kind each carries (mission/autopilot has the status layout) and where it is kept.
  const MISSION_TOPICS = {
    [Q.TOPICS.missionUpload.path]: ['upload', 'mission'],
    [Q.TOPICS.missionProgress.path]: ['progress', 'missionProgress'],
    [Q.TOPICS.missionStatus.path]: ['status', 'missionStatus'],
    [Q.TOPICS.missionAutopilot.path]: ['status', 'missionAutopilot'],
  };
  // A .plan file read in the page (planfile.js), as location-broadcaster reads it.
  const PLANS = window.QuadPlanFile;

  // ---- URL parameters (all optional, all checked) ----
  function parseParams() {
    let p;
    try { p = new URLSearchParams(location.search); } catch (e) { p = new URLSearchParams(); }
    const num = (key, lo, hi, fallback) => {
      const v = Number(p.get(key));
      return p.has(key) && Number.isFinite(v) && v >= lo && v <= hi ? v : fallback;
    };
    const safeURL = (value, schemes) => value && value.length < 500 && schemes.test(value) && !/[\s"'<>`\\]/.test(value)
      ? value : null;
    let tiles = safeURL(p.get('tiles'), /^https?:\/\//);
    if (tiles && !['{z}', '{x}', '{y}'].every((k) => tiles.includes(k))) tiles = null;
    const fallbackBroker = (location.protocol === 'https:' ? 'wss://' : 'ws://') + (location.host || '127.0.0.1:9001')
      + '/';
    const drone = p.get('drone');
    return {
      tiles,
      broker: safeURL(p.get('broker'), /^wss?:\/\//) || fallbackBroker,
      geofenceM: num('geofence', 1, 100000, 200),
      arrivalM: num('arrival', 0.1, 1000, 1),
      lat: num('lat', -85, 85, 52.5163), lon: num('lon', -180, 180, 13.3777),
      user: (p.get('user') || '').slice(0, 64),
      drone: drone && Q.DRONE_ID.test(drone) ? drone : null,
    };
  }
  const params = parseParams();
  function hostOf(url) { try { return new URL(url).hostname; } catch (e) { return '?'; } }

  function storage(key, value) {
    try {
      if (value === undefined) return window.sessionStorage.getItem(key) || '';
      window.sessionStorage.setItem(key, value);
    } catch (e) { /* private mode: no memory */ }
    return '';
  }
  const senderId = (() => {
    let id = storage('quad-map-sender');
    if (!/^map-[0-9a-f]{8}$/.test(id)) {
      id = 'map-' + Array.from(crypto.getRandomValues(new Uint8Array(4)), (b) => b.toString(16).padStart(2, '0'))
        .join('');
      storage('quad-map-sender', id);
    }
    return id;
  })();

  // ---- geometry (spherical, good to centimetres over a few hundred metres) ----
  const R = 6371008.8, rad = Math.PI / 180;
  function distanceM(a, b) {
    const dLat = (b[0] - a[0]) * rad, dLon = (b[1] - a[1]) * rad;
    const h = Math.sin(dLat / 2) ** 2 + Math.cos(a[0] * rad) * Math.cos(b[0] * rad) * Math.sin(dLon / 2) ** 2;
    return 2 * R * Math.asin(Math.min(1, Math.sqrt(h)));
  }
  function bearingDeg(a, b) {
    const y = Math.sin((b[1] - a[1]) * rad) * Math.cos(b[0] * rad);
    const x = Math.cos(a[0] * rad) * Math.sin(b[0] * rad) - Math.sin(a[0] * rad) * Math.cos(b[0] * rad) * Math.cos(
      (b[1] - a[1]) * rad);
    return (Math.atan2(y, x) / rad + 360) % 360;
  }

  // ---- state ----
  const drones = new Map();
  let selectedId = params.drone;
  // The connection as last reported; downSince: when it went away (null while online).
  let broker = { state: 'connecting', detail: '', retryAtMs: null, downSince: null };
  let badPayloads = 0;
  let pendingTarget = null;
  let actionWait = null;
  // The mission command awaiting the board's answer (one at a time; the latest button wins).
  let missionWait = null;
  const sequences = {};
  function droneRecord(id) {
    let d = drones.get(id);
    if (!d) {
      d = { id, position: null, headingDeg: null, fixHeading: false, track: [], home: null, controller: null,
        link: null,
        state: null, navigation: null, presence: {}, lastHeard: 0, layers: null, clockSamplesMs: [],
        // What the controller holds (airspace/held) and the board's mission (mission/upload, mission/progress).
        airspace: null, mission: null, missionProgress: null, missionStatus: null, missionAutopilot: null,
        // The controller's way around keep-out zones (airspace/route; null: none).
        route: null,
        drawn: { airspace: null, mission: null } };
      drones.set(id, d);
      if (!selectedId) selectedId = id;
    }
    return d;
  }
  const selected = () => (selectedId && drones.get(selectedId)) || null;

  // ---- the map ----
  let map = null, grid = null, gridOrigin = null;
  if (haveLeaflet) {
    // Leaflet's stylesheet, inlined: mosquitto's http_dir sends no Content-Type, and browsers drop such stylesheets.
    fetch('vendor/leaflet/leaflet.css').then((r) => r.ok ? r.text() : '').then((css) => {
      const style = document.createElement('style'); style.textContent = css; document.head.appendChild(style);
    }).catch(() => {});
    map = L.map('map', { zoomControl: true, maxZoom: 22 }).setView([params.lat, params.lon], 18);
    window.quadMap = map;
    L.control.scale({ metric: true, imperial: false, maxWidth: 200 }).addTo(map);
    gridOrigin = L.latLng(params.lat, params.lon);
    grid = new (L.GridLayer.extend({ createTile: drawGridTile }))({ maxZoom: 22 });
    if (params.tiles) {
      const host = hostOf(params.tiles);
      L.tileLayer(params.tiles, { maxZoom: 22, maxNativeZoom: 19, attribution: 'tiles: ' + host }).addTo(map);
      grid.setOpacity(0.5);
      $('background-note').textContent = 'Background: online tiles from ' + host + ' over the metric grid.';
    } else {
      $('background-note').textContent = 'Background: local metric grid (thin lines every grid step, bold every 5), no '
          + 'internet needed. Add ?tiles=URL for online tiles.';
    }
    grid.addTo(map);
    const gridLabel = L.control({ position: 'bottomleft' });
    gridLabel.onAdd = () => {
      const div = L.DomUtil.create('div');
      div.setAttribute('data-test', 'grid-step');
      div.style.background = 'rgba(255,255,255,0.8)';
      div.style.padding = '0 4px';
      return div;
    };
    gridLabel.addTo(map);
    const updateGridLabel = () => {
      gridLabel.getContainer().textContent = 'grid ' + gridSpacing(map.getZoom()) + ' m (bold: '
        + 5 * gridSpacing(map.getZoom()) + ' m)';
    };
    map.on('zoomend', updateGridLabel);
    // The margin band's stroke is metres drawn in pixels: redrawn at every zoom.
    map.on('zoomend', () => { for (const d of drones.values()) d.drawn.airspace = null; scheduleRender(); });
    updateGridLabel();
    map.on('click', (e) => chooseTarget([e.latlng.lat, e.latlng.lng]));
  } else {
    $('map').textContent = 'Leaflet is missing (vendor/leaflet): run `make web-map` (Debian package libjs-leaflet). '
        + 'The panel still works.';
  }

  // Grid step in metres at a zoom level: the smallest 1-2-5 step at least 40 px apart.
  function gridSpacing(z) {
    const metresPerPixel = 40075016.686 * Math.cos(gridOrigin.lat * rad) / (256 * 2 ** z);
    const steps = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000, 20000, 50000, 100000, 200000, 500000,
      1e6];
    return steps.find((s) => s / metresPerPixel >= 40) || 1e6;
  }

  // A metric grid around gridOrigin: lines of constant latitude and longitude every `spacing` metres.
  function drawGridTile(coords) {
    const tile = document.createElement('canvas');
    const size = this.getTileSize();
    tile.width = size.x; tile.height = size.y;
    const ctx = tile.getContext('2d');
    const z = coords.z, origin = coords.scaleBy(size);
    const nw = map.unproject(origin, z), se = map.unproject(origin.add(size), z);
    const o = gridOrigin;
    const mLat = 111320, mLon = 111320 * Math.cos(o.lat * rad);
    const spacing = gridSpacing(z);
    const line = (k, draw) => {
      ctx.strokeStyle = k % 5 === 0 ? 'rgba(60,90,60,0.55)' : 'rgba(60,90,60,0.2)';
      ctx.lineWidth = k % 5 === 0 ? 1.2 : 1;
      ctx.beginPath();
      draw();
      ctx.stroke();
    };
    const x0 = (nw.lng - o.lng) * mLon, x1 = (se.lng - o.lng) * mLon;
    for (let k = Math.ceil(x0 / spacing), n = 0; k * spacing <= x1 && n < 64; k++, n++) {
      const px = map.project([nw.lat, o.lng + k * spacing / mLon], z).x - origin.x;
      line(k, () => { ctx.moveTo(px, 0); ctx.lineTo(px, size.y); });
    }
    const y0 = (se.lat - o.lat) * mLat, y1 = (nw.lat - o.lat) * mLat;
    for (let k = Math.ceil(y0 / spacing), n = 0; k * spacing <= y1 && n < 64; k++, n++) {
      const py = map.project([o.lat + k * spacing / mLat, nw.lng], z).y - origin.y;
      line(k, () => { ctx.moveTo(0, py); ctx.lineTo(size.x, py); });
    }
    return tile;
  }

  const droneSVG = '<svg viewBox="-15 -15 30 30"><g class="arrow"><circle r="13" fill="rgba(21,101,192,0.15)" '
      + 'stroke="#1565c0"/>' +
    '<path d="M0,-12 L7,8 L0,4 L-7,8 Z" fill="#1565c0" stroke="#fff" stroke-width="1"/></g></svg>';

  function ensureLayers(d) {
    if (!map || d.layers) return d.layers;
    const layers = {
      track: L.polyline([], { color: '#1565c0', weight: 2, opacity: 0.7 }).addTo(map),
      fence: L.circle([0, 0], { radius: params.geofenceM, color: '#c62828', weight: 1.5, dashArray: '6 6', fill: false,
        interactive: false }),
      home: L.circleMarker([0, 0], { radius: 6, color: '#2e7d32', fillColor: '#66bb6a', fillOpacity: 1 })
        .bindTooltip('home (takeoff point) ' + d.id),
      target: L.circleMarker([0, 0], { radius: 5, color: '#6a1b9a', fillColor: '#ab47bc', fillOpacity: 1 })
        .bindTooltip('target'),
      arrival: L.circle([0, 0], { radius: params.arrivalM, color: '#6a1b9a', weight: 1, fillOpacity: 0.15,
        interactive: false }),
      marker: L.marker([0, 0], { icon: L.divIcon({ className: 'drone-icon', html: droneSVG, iconSize: [30, 30],
        iconAnchor: [15, 15] }), keyboard: false }),
      airspace: L.layerGroup().addTo(map),
      mission: L.layerGroup().addTo(map),
      // The route around keep-out zones: dashed ahead of the drone, faint where it has been.
      routeAhead: L.polyline([], { color: '#ef6c00', weight: 3, dashArray: '8 6', interactive: false }),
      routePassed: L.polyline([], { color: '#ef6c00', weight: 2, opacity: 0.3, dashArray: '2 6', interactive: false }),
    };
    layers.marker.on('click', () => { selectedId = d.id; render(); });
    d.layers = layers;
    return layers;
  }

  function show(layer, on) {
    if (on && !map.hasLayer(layer)) layer.addTo(map);
    if (!on && map.hasLayer(layer)) layer.remove();
  }

  function renderMap(d) {
    const l = ensureLayers(d);
    if (!l) return;
    if (d.position) {
      show(l.marker, true);
      l.marker.setLatLng(d.position);
      const el = l.marker.getElement();
      if (el) {
        el.setAttribute('data-test', 'drone');
        el.setAttribute('data-drone', d.id);
        el.setAttribute('data-lat', d.position[0].toFixed(7));
        el.setAttribute('data-lon', d.position[1].toFixed(7));
        el.title = d.id;
        const arrow = el.querySelector('.arrow');
        if (arrow) {
          arrow.setAttribute('transform', 'rotate(' + (d.headingDeg || 0).toFixed(1) + ')');
          arrow.style.opacity = d.headingDeg == null ? 0.4 : 1;
        }
      }
    }
    l.track.setLatLngs(d.track);
    show(l.home, !!d.home); show(l.fence, !!d.home);
    if (d.home) { l.home.setLatLng(d.home); l.fence.setLatLng(d.home); }
    const c = d.controller;
    const hasTarget = c && c.targetLatitudeDeg != null && c.targetLongitudeDeg != null;
    show(l.target, hasTarget); show(l.arrival, hasTarget);
    if (hasTarget) {
      l.target.setLatLng([c.targetLatitudeDeg, c.targetLongitudeDeg]);
      l.arrival.setLatLng([c.targetLatitudeDeg, c.targetLongitudeDeg]);
    }
    if (d.drawn.airspace !== d.airspace) drawAirspace(d, l);
    drawRoute(d, l);
    const missionKey = d.mission && (d.mission.checksum + '/' + JSON.stringify(d.missionProgress));
    if (d.drawn.mission !== missionKey) { drawMission(d, l); d.drawn.mission = missionKey; }
  }

  // Tags a drawn path for the page tests (Leaflet's SVG element exists once the layer is on the map).
  function tag(layer, attributes) {
    const el = layer.getElement && layer.getElement();
    if (el) for (const [k, v] of Object.entries(attributes)) el.setAttribute(k, String(v));
  }

  // The zones the controller holds: keep-out filled red, inclusion outlined green, and the margin as a band of
  // 2 × margin around each edge (a stroke as wide as the margin on both sides, so its inner and outer rims are where
  // the margin ends).
  function drawAirspace(d, l) {
    l.airspace.clearLayers();
    d.drawn.airspace = d.airspace;
    const a = d.airspace;
    if (!a) return;
    const metresPerPixel = (latDeg) => 40075016.686 * Math.cos(latDeg * rad) / (256 * 2 ** map.getZoom());
    for (const zone of a.zones) {
      const keepOut = zone.kind === 'keepOut';
      const style = keepOut ? { color: '#c62828', weight: 2, fillColor: '#e53935', fillOpacity: 0.3 }
        : { color: '#2e7d32', weight: 2, fill: false, dashArray: '8 4' };
      const shape = (options) => zone.shape === 'circle'
        ? L.circle(zone.centre, Object.assign({ radius: zone.radiusM, interactive: false }, options))
        : L.polygon(zone.rings, Object.assign({ interactive: false }, options));
      const drawn = shape(style).addTo(l.airspace);
      // A zone's name is the uploader's text: a text node, never HTML (Leaflet takes a string tooltip as HTML).
      const label = document.createElement('span');
      label.textContent = (keepOut ? 'keep-out zone ' : 'inclusion zone ') + zone.name;
      drawn.bindTooltip(label);
      tag(drawn, { 'data-test': 'zone', 'data-zone': zone.name, 'data-kind': zone.kind });
      if (a.marginM > 0) {
        const latDeg = zone.shape === 'circle' ? zone.centre[0] : zone.rings[0][0][0];
        const band = shape({ color: keepOut ? '#e53935' : '#43a047', opacity: 0.18, fill: false,
          weight: Math.max(1, 2 * a.marginM / metresPerPixel(latDeg)) }).addTo(l.airspace);
        tag(band, { 'data-test': 'zone-margin', 'data-zone': zone.name });
      }
    }
  }

  // The controller's way around keep-out zones, from the drone through the corners left to the goal (ZONES.routeLines):
  // drawn when published, before the drone flies it; cleared when it ends.
  function drawRoute(d, l) {
    const lines = ZONES.routeLines(d.route, d.position);
    show(l.routeAhead, !!lines);
    show(l.routePassed, !!lines && lines.passed.length > 0);
    if (!lines) return;
    l.routeAhead.setLatLngs(lines.ahead);
    l.routePassed.setLatLngs(lines.passed);
    tag(l.routeAhead, { 'data-test': 'route', 'data-points': lines.ahead.length, 'data-purpose': d.route.purpose,
      'data-next': d.route.nextCorner });
    tag(l.routePassed, { 'data-test': 'route-passed', 'data-points': lines.passed.length });
  }

  // The plan the board holds: its items numbered, the legs between them, reached items green, the current one
  // orange. Items without a point (takeoff, change speed, land in place, return) are listed in the panel only.
  function drawMission(d, l) {
    l.mission.clearLayers();
    if (!d.mission) return;
    const p = d.missionProgress && d.missionProgress.planChecksum === d.mission.checksum ? d.missionProgress : null;
    const reached = new Set(p ? p.reached.map((r) => r.id) : []);
    const legs = d.mission.plan.plannedHome ? [d.mission.plan.plannedHome] : [];
    for (const item of d.mission.plan.items) {
      if (!item.point) continue;
      legs.push(item.point);
      const state = reached.has(item.id) ? 'reached'
        : p && p.currentItem === item.id && !['completed', 'aborted', 'idle'].includes(p.state) ? 'current' : 'planned';
      const colour = { reached: '#2e7d32', current: '#ef6c00', planned: '#1565c0' }[state];
      const marker = L.circleMarker(item.point, { radius: state === 'current' ? 9 : 7, color: colour,
        fillColor: colour, fillOpacity: state === 'planned' ? 0.2 : 0.7 }).addTo(l.mission);
      marker.bindTooltip(String(item.id), { permanent: true, direction: 'top', offset: [0, -6] });
      tag(marker, { 'data-test': 'mission-item', 'data-item': item.id, 'data-state': state });
    }
    const line = L.polyline(legs, { color: '#1565c0', weight: 2, dashArray: '4 6', interactive: false })
      .addTo(l.mission);
    tag(line, { 'data-test': 'mission-legs', 'data-points': legs.length });
  }

  // ---- messages ----
  // Binary payloads by path; presence (JSON text, one level deeper: status/<service>) is read apart.
  const byPath = {};
  for (const key in Q.TOPICS) if (Q.TOPICS[key] !== Q.TOPICS.presence) byPath[Q.TOPICS[key].path] = Q.TOPICS[key];
  const presencePrefix = Q.TOPICS.presence.path + '/';

  function onMessage(topic, bytes, retained) {
    const where = Q.parseTopic(topic);
    if (!where) return;
    try {
      if (where.path.startsWith(presencePrefix)) {
        if (bytes.length === 0) return;   // a cleared retained status
        const service = where.path.slice(presencePrefix.length).slice(0, 100);
        droneRecord(where.drone).presence[service] = Q.decodeStatus(bytes).state;
      } else {
        const spec = byPath[where.path];
        if (!spec) return;
        const d = droneRecord(where.drone);
        if (MISSION_TOPICS[spec.path]) {
          // An empty retained message clears what the board held.
          const [kind, field] = MISSION_TOPICS[spec.path];
          d[field] = bytes.length === 0 ? null : MISSION.decode(bytes, kind);
          planAnswer();
          missionAnswer();
        } else if (spec === Q.TOPICS.airspaceHeld) {
          const m = bytes.length === 0 ? null : Q.decode(bytes, spec.type);
          d.airspace = m && m.zones.length ? m : null;
        } else if (spec === Q.TOPICS.airspaceRoute) {
          const m = bytes.length === 0 ? null : Q.decode(bytes, spec.type);
          d.route = m && m.purpose !== 'none' ? m : null;
        } else {
          apply(d, Q.decode(bytes, spec.type), retained);
        }
      }
    } catch (e) {
      badPayloads++;
      $('bad-last').textContent = '(last: ' + topic.slice(0, 80) + ' — ' + String(e && (e.code || e.message) || e)
        .slice(0, 80) + ')';
      console.warn('bad payload on', topic, e);
    }
    scheduleRender();
  }

  function apply(d, m, retained) {
    if (!retained) d.lastHeard = Date.now();
    switch (m.type) {
      case 'positionFix': {
        const first = !d.position;
        d.position = [m.latitudeDeg, m.longitudeDeg];
        if (m.headingDeg != null) { d.headingDeg = m.headingDeg; d.fixHeading = true; }
        const last = d.track[d.track.length - 1];
        if (!last || distanceM(last, d.position) > 0.2) {
          d.track.push(d.position);
          if (d.track.length > 5000) d.track.splice(0, 1000);
        }
        // Until the drone is airborne, its position is where it takes off: the geofence's centre.
        const activity = d.controller && d.controller.activity;
        if (!d.home || !activity || activity === 'landed') d.home = d.position;
        if (first && map && d.id === selectedId) {
          map.setView(d.position, Math.max(map.getZoom(), 18));
          gridOrigin = L.latLng(d.position[0], d.position[1]); grid.redraw();
        }
        break;
      }
      case 'droneState':
        d.state = m;
        // The board's clock against this browser's, from telemetry stamps (display only, like `status`): the
        // largest recent stamp − receipt difference is the least-delayed message's.
        if (!retained && Number.isFinite(m.timestampUs) && m.timestampUs > 0) {
          d.clockSamplesMs.push(m.timestampUs / 1000 - Date.now());
          if (d.clockSamplesMs.length > 64) d.clockSamplesMs.shift();
          d.clockOffsetMs = Math.max(...d.clockSamplesMs);
        }
        if (!d.fixHeading && m.magnetoHeadingDeg != null) d.headingDeg = m.magnetoHeadingDeg;
        break;
      case 'navigationSolution':
        d.navigation = m;
        if (!d.fixHeading) d.headingDeg = m.headingDeg;
        break;
      case 'controllerState': {
        const before = d.controller && d.controller.activity;
        if (before === 'landed' && m.activity === 'takingOff' && d.position) d.home = d.position;
        d.controller = m;
        // The answer to our action: a reason that answers it (takeoff, land, new-target, its refusals…); other
        // states that happen to arrive meanwhile (a failsafe, a progress update) are not taken for it.
        if (actionWait && actionWait.drone === d.id && actionWait.acked && !retained &&
            WORDS.answers(m.reason, actionWait.what)) {
          const refused = WORDS.isRefusal(m.reason), failed = WORDS.isFailure(m.reason);
          const said = refused ? 'refused — ' + m.reason + ': ' + WORDS.text(m.reason)
            : failed ? 'failed — ' + m.reason + ': ' + WORDS.text(m.reason)
            : 'controller ' + WORDS.activityText(m.activity) + (m.reason ? ' (' + m.reason + ')' : '');
          showResult(actionWait.what + ': ' + said, refused || failed ? 'bad' : 'ok');
          actionWait = null;
        }
        break;
      }
      case 'linkStatus': d.link = m; break;
    }
  }

  const hasTargetNow = (d) => !!(d.controller && d.controller.targetLatitudeDeg != null);

  // ---- panel ----
  let renderQueued = false;
  function scheduleRender() {
    if (!renderQueued) { renderQueued = true; requestAnimationFrame(() => { renderQueued = false; render(); }); }
  }

  const ACK_OK = new Set(['accepted', 'inProgress']);
  function setText(id, text, cls) { const el = $(id); el.textContent = text; el.className = cls || ''; }

  function render() {
    $('bad-payloads').textContent = String(badPayloads);
    const box = $('drones');
    $('drones-box').style.display = drones.size > 1 ? '' : 'none';
    if (box.childElementCount !== drones.size) {
      box.textContent = '';
      for (const id of [...drones.keys()].sort()) {
        const b = document.createElement('button');
        b.textContent = id; b.setAttribute('data-drone', id);
        b.onclick = () => {
          selectedId = id;
          const d = drones.get(id);
          if (map && d && d.position) map.panTo(d.position);
          render();
        };
        box.appendChild(b);
      }
    }
    for (const b of box.children) b.className = b.getAttribute('data-drone') === selectedId ? 'selected' : '';
    if (map) for (const d of drones.values()) renderMap(d);
    const d = selected();
    setText('drone-name', d ? d.id : '—');
    renderMissionButtons(d);
    if (!d) return;
    const c = d.controller;
    // Broker gone: nothing shown is current. Age from the drone's last live message (or from the loss).
    const staleS = broker.downSince == null ? null
      : (Date.now() - Math.min(d.lastHeard || Infinity, broker.downSince)) / 1000;
    const stale = staleS == null ? '' : ' — stale, ' + staleS.toFixed(0) + ' s old (broker offline)';
    setText('activity', c ? WORDS.activityText(c.activity) + stale : '—',
      stale && c ? 'warn' : c && c.activity === 'emergency' ? 'bad' : '');
    setText('reason', c && c.reason ? c.reason : '', c && WORDS.isRefusal(c.reason) ? 'bad' : '');
    $('reason').title = c && c.reason ? WORDS.text(c.reason) : '';
    if (d.clockOffsetMs == null) setText('clock', '—');
    else {
      const offsetS = d.clockOffsetMs / 1000;
      const text = (offsetS >= 0 ? '+' : '') + offsetS.toFixed(1) + ' s';
      if (Math.abs(offsetS) > 1) setText('clock', 'board clock ' + text
        + ' from this computer: logs will not line up (sync with chrony)', 'bad');
      else setText('clock', text);
    }
    setText('pilot', c ? (c.pilotId ? c.pilotId + (c.pilotId === senderId ? ' (this page)' : '') : 'nobody') : '—');
    const ageS = d.lastHeard ? (Date.now() - d.lastHeard) / 1000 : Infinity;
    if (!d.link) setText('link', '—');
    else if (d.link.connected && d.link.reason === 'ok' && ageS < 2) setText('link',
      'ok, ' + d.link.navdataPerSecond.toFixed(0) + ' navdata/s', 'ok');
    else setText('link', (d.link.connected ? 'degraded: ' : 'lost: ') + WORDS.linkReasonText(d.link.reason)
      + (d.link.fallbackHover ? ', fallback hover' : '') +
      (ageS >= 2 ? ', no telemetry for ' + (Number.isFinite(ageS) ? ageS.toFixed(0) + ' s' : 'ever') : ''), 'bad');
    if (d.link && ageS >= 2 && d.link.connected && d.link.reason === 'ok') setText('link',
      'no telemetry for ' + (Number.isFinite(ageS) ? ageS.toFixed(0) + ' s' : 'ever'), 'warn');
    // 1.2: a MAVLink link names the autopilot's last answer, so a refused takeoff shows here, not only in its log.
    if (d.link && d.link.ackCommand) {
      const el = $('link');
      const ackS = d.link.ackAgeMs / 1000;
      el.textContent += '; autopilot: ' + d.link.ackCommand + ' ' + d.link.ackResult + ' ' + ackS.toFixed(0) + ' s ago';
      // A refusal stays in every report until the next command: only a recent one colours a healthy link.
      if (!ACK_OK.has(d.link.ackResult) && ackS < 30 && el.className === 'ok') el.className = 'warn';
    }
    const s = d.state;
    setText('battery', s ? s.batteryPercent + ' %' : '—', s && s.batteryPercent < 20 ? 'bad' : '');
    setText('altitude', s ? s.altitudeM.toFixed(1) + ' m' : '—');
    setText('speed', s ? Math.hypot(s.velocityXMps, s.velocityYMps).toFixed(1) + ' m/s' : '—');
    setText('position', d.position ? d.position[0].toFixed(6) + ', ' + d.position[1]
      .toFixed(6) + (d.headingDeg != null ? ', heading ' + d.headingDeg.toFixed(0) + '°' : '') : '—');
    // While returning home the controller's distance is to home; the navigator's is to the dropped target.
    const returning = !!c && c.activity === 'returningHome';
    const toTarget = c && c.distanceToTargetM != null ? c.distanceToTargetM
      : !returning && hasTargetNow(d) && d.navigation ? d.navigation.distanceM : null;
    setText('distance-label', returning ? 'to home' : 'to target');
    setText('distance', toTarget != null ? toTarget.toFixed(1) + ' m' : '—');
    const a = d.airspace;
    setText('airspace', a ? a.zones.length + ' zones (' + a.zones.filter((z) => z.kind === 'keepOut').length
      + ' keep-out), margin ' + a.marginM + ' m, ceiling ' + a.ceilingM + ' m'
      + (a.floorM != null ? ', floor ' + a.floorM + ' m' : '') : 'none: the geofence circle only');
    setText('route', ZONES.routeText(d.route) || '—');
    setText('mission', missionText(d));
    const table = $('presence');
    table.textContent = '';
    for (const service of Object.keys(d.presence).sort()) {
      const row = table.insertRow();
      row.insertCell().textContent = service;
      const cell = row.insertCell();
      const known = d.presence[service];
      const downS = broker.downSince == null ? null : (Date.now() - broker.downSince) / 1000;
      cell.textContent = downS == null ? known : 'unknown (' + known + ' ' + downS.toFixed(0) + ' s ago)';
      cell.className = downS != null ? 'warn' : known === 'online' ? 'ok' : known === 'offline' ? 'bad' : 'warn';
      cell.setAttribute('data-test', 'presence-' + service.replace(/[^a-z0-9-]/g, '-'));
    }
  }
  setInterval(scheduleRender, 1000);

  const MISSION_STATES = { idle: 'loaded, not started', running: 'running', paused: 'paused',
    holdingAfterRestart: 'holding after a restart (mission resume flies on)', returning: 'returning (lost pilot)',
    completed: 'completed', aborted: 'aborted' };
  function missionText(d) {
    const s = d.missionStatus;
    // The board's last refusal, of an upload or of a command (its reason says which).
    const refused = s && s.refusal ? '; last refused (plan ' + hexName(s.refusal.planChecksum) + '): '
      + s.refusal.reason : '';
    const autopilot = d.mission && MISSION.autopilotLine(d.missionAutopilot, d.mission.checksum);
    return missionState(d) + refused + (autopilot ? '; ' + autopilot : '');
  }
  const hexName = (checksum) => (checksum >>> 0).toString(16).toUpperCase().padStart(8, '0');
  function missionState(d) {
    if (!d.mission) return 'none';
    const items = d.mission.plan.items;
    const name = (d.mission.checksum >>> 0).toString(16).toUpperCase().padStart(8, '0');
    const p = d.missionProgress;
    if (!p) return items.length + ' items, plan ' + name + ', no progress yet';
    if (p.planChecksum !== d.mission.checksum) return items.length + ' items, plan ' + name
      + '; progress is for another plan';
    const current = items[p.currentItem];
    const parts = [MISSION_STATES[p.state] || p.state];
    if (!['completed', 'idle'].includes(p.state) && current) parts.push('item ' + p.currentItem + ' of '
      + items.length + ' (' + current.kind + (p.phase === 'staying' ? ', ' + p.stayLeftS.toFixed(0) + ' s left' : '')
      + ')');
    parts.push(p.reached.length + ' reached');
    if (p.state !== 'completed') parts.push(p.remainingDistanceM.toFixed(0) + ' m, ' + p.remainingTimeS.toFixed(0)
      + ' s to go');
    return parts.join('; ') + ' — plan ' + name;
  }

  // ---- acting ----
  function showResult(text, cls) { setText('action-result', text, cls); }

  function publish(drone, key, fields) {
    const spec = Q.TOPICS[key];
    const next = ((sequences[key] || 0) % 4294967295) + 1;
    const bytes = Q.encode(Object.assign({ type: spec.type, sequence: next, timestampUs: Date.now() * 1000 }, fields));
    sequences[key] = next;
    return client.publish(Q.topic(spec, drone), bytes, spec.qos);
  }

  // Commands, claims and targets are addressed to the controller run of its last state (format 1.2), so one
  // delivered late to a restarted controller is refused. Without a state nothing is sent, except an emergency
  // (unaddressed). After a `…-for-previous-run` refusal the page already has the new run: click again.
  function runOf(d, what) {
    if (d.controller) return d.controller.runId;
    if (what === 'emergency') return 0;
    throw new Error('no state from drone-controller yet, so it cannot be addressed to its run');
  }

  async function act(what, send) {
    const d = selected();
    if (!d) { showResult(what + ': no drone seen yet', 'bad'); return; }
    forgetMissionWait();
    actionWait = { drone: d.id, what, acked: false };
    showResult(what + ': sending…', 'warn');
    try {
      await send(d);
      if (actionWait && actionWait.what === what) {
        actionWait.acked = true;
        showResult(what + ': delivered, waiting for the controller…', 'warn');
        const wait = actionWait;
        setTimeout(
          () => {
            if (actionWait === wait) {
              actionWait = null;
              showResult(what + ': delivered, no answer from the controller in 5 s', 'bad');
            }
          }, 5000);
      }
    } catch (e) {
      actionWait = null;
      showResult(what + ': not sent — ' + (e && e.message || e), 'bad');
    }
  }

  function chooseTarget(point) {
    const d = selected();
    pendingTarget = point;
    const parts = ['Target ' + point[0].toFixed(6) + ', ' + point[1].toFixed(6)];
    if (d && d.position) parts.push(distanceM(d.position, point).toFixed(1) + ' m from ' + d.id + ' at '
      + bearingDeg(d.position, point).toFixed(0) + '°');
    if (d && d.home && distanceM(d.home, point) > params.geofenceM) parts.push('outside the ' + params.geofenceM
      + ' m geofence: the controller will refuse it');
    if (d && d.controller && d.controller.pilotId && d.controller.pilotId !== senderId) parts.push(d.controller.pilotId
      + ' holds control: expect not-pilot');
    $('pending-text').textContent = parts.join('; ');
    // A point the controller's airspace refuses is not sent: said here, with the controller's reason.
    const refusal = d ? ZONES.judge(d.airspace, point) : null;
    pendingTarget = refusal ? null : point;
    setText('pending-refusal', refusal ? 'refused on this page — ' + refusal.reason + ': ' + refusal.text : '',
      refusal ? 'bad' : '');
    $('send-target').style.display = refusal ? 'none' : '';
    $('pending').style.display = 'block';
    if (map) {
      if (!chooseTarget.marker) chooseTarget.marker = L.circleMarker(point,
        { radius: 7, color: '#ef6c00', dashArray: '3 3', fillOpacity: 0.2 });
      chooseTarget.marker.setLatLng(point).addTo(map);
    }
  }
  function clearPending() {
    pendingTarget = null;
    $('pending').style.display = 'none';
    if (chooseTarget.marker) chooseTarget.marker.remove();
  }

  $('send-target').onclick = () => {
    const point = pendingTarget;
    if (!point) return;
    clearPending();
    act('target', async (d) => {
      // As location-broadcaster does: claim pilot control first unless this page already holds it.
      const controllerRunId = runOf(d, 'target');
      if (d.controller.pilotId !== senderId) await publish(d.id, 'controlClaim',
        { senderId, action: 'claim', controllerRunId });
      await publish(d.id, 'target', { senderId, latitudeDeg: point[0], longitudeDeg: point[1], altitudeM: null, ttlS: 0,
        controllerRunId });
    });
  };
  $('cancel-target').onclick = clearPending;

  // ---- a .plan dropped on the map, or chosen with "Upload plan…" ----
  // Read and checked here (planfile.js: what the Swift parser and the rules every board holds refuse is refused
  // here, nothing published), encoded as location-broadcaster encodes it and published as it does: retained, QoS 1,
  // on quad/<drone>/mission/upload. The board's answer, as `mission upload` waits for it: a progress carrying the
  // plan's checksum (held), or a new mission/status refusing that checksum (with the item and why). The file's
  // name and the board's reason are text: textContent only.
  let planWait = null;
  function planResult(text, cls) { setText('plan-result', text, cls); }
  function planAnswer() {
    const w = planWait;
    const d = w && w.sent && drones.get(w.drone);
    if (!d) return;
    const s = d.missionStatus;
    if (d.missionProgress && d.missionProgress.planChecksum === w.checksum) {
      planResult(w.name + ': accepted — drone-controller holds plan ' + hexName(w.checksum) + ' (' + w.items
        + ' items)', 'ok');
    } else if (s && s.sequence !== w.statusSequence && s.refusal && s.refusal.planChecksum === w.checksum) {
      planResult(w.name + ': refused by drone-controller — ' + s.refusal.reason, 'bad');
    } else return;
    clearTimeout(w.timer);
    planWait = null;
  }
  async function uploadPlan(files) {
    const file = files && files[0];
    if (!file) return;
    const name = String(file.name || 'the file').slice(0, 80);
    const d = selected();
    if (planWait) clearTimeout(planWait.timer);
    planWait = null;
    let upload, plan;
    try {
      if (files.length > 1) throw new PLANS.PlanError('drop one .plan file, not ' + files.length);
      if (!d) throw new PLANS.PlanError('no drone seen yet');
      if (!d.controller) throw new PLANS.PlanError('no state from drone-controller yet: no board to take a plan');
      if (file.size > PLANS.MAX_FILE_BYTES) throw new PLANS.PlanError('the file has ' + file.size
        + ' bytes; the page reads plans of at most ' + PLANS.MAX_FILE_BYTES + ' bytes');
      plan = PLANS.parse(new Uint8Array(await file.arrayBuffer()));
      // The page's sender id (map-xxxxxxxx, as on its targets): the only byte that differs from what
      // `location-broadcaster mission upload FILE` publishes for the same file (its --sender-id). The upload
      // carries no upload id and no time (PROTOCOL.md, MissionUpload): the plan and its checksum are the same.
      upload = MISSION.encodeUpload(senderId, plan);
    } catch (e) {
      planResult(name + ': refused on this page, nothing sent — ' + String(e && e.message || e).slice(0, 300), 'bad');
      return;
    }
    const spec = Q.TOPICS.missionUpload;
    const wait = { drone: d.id, checksum: upload.checksum, items: plan.items.length, name, sent: false,
      statusSequence: d.missionStatus ? d.missionStatus.sequence : null };
    planWait = wait;
    planResult(name + ': sending plan ' + hexName(upload.checksum) + ' (' + plan.items.length + ' items)…', 'warn');
    try {
      await client.publish(Q.topic(spec, d.id), upload.bytes, spec.qos, spec.retain);
    } catch (e) {
      if (planWait === wait) planWait = null;
      planResult(name + ': not sent — ' + String(e && e.message || e), 'bad');
      return;
    }
    if (planWait !== wait) return;
    wait.sent = true;
    planResult(name + ': plan ' + hexName(upload.checksum) + ' delivered, waiting for drone-controller…', 'warn');
    wait.timer = setTimeout(() => {
      if (planWait !== wait) return;
      planWait = null;
      planResult(name + ': delivered, no answer from drone-controller in 10 s (a login that may not upload plans '
        + 'is dropped by the broker)', 'bad');
    }, 10000);
    planAnswer();
  }
  const planFile = $('plan-file');
  $('upload-plan').onclick = () => planFile.click();
  planFile.onchange = () => { uploadPlan(planFile.files); planFile.value = ''; };
  const mapBox = $('map');
  mapBox.addEventListener('dragover', (e) => {
    e.preventDefault();
    if (e.dataTransfer) e.dataTransfer.dropEffect = 'copy';
    mapBox.classList.add('dropping');
  });
  mapBox.addEventListener('dragleave', () => mapBox.classList.remove('dropping'));
  mapBox.addEventListener('drop', (e) => {
    e.preventDefault();
    mapBox.classList.remove('dropping');
    uploadPlan(e.dataTransfer && e.dataTransfer.files);
  });
  // A file dropped beside the map must not replace the page.
  for (const type of ['dragover', 'drop']) window.addEventListener(type, (e) => e.preventDefault());
  // ---- the mission buttons ----
  // As `location-broadcaster mission start|pause|resume|abort|goto N`: a binary MissionCommand with the page's
  // sender id (the pilot-claim rules apply as to its targets: while another pilot holds control the board refuses
  // it; the page claims nothing for it), addressed to the plan the board holds by its checksum, from the board's
  // own retained progress, as the CLI takes it. QoS 1, not retained. The answer shown is the board's (commandAnswer
  // in missionproto.js): the progress changed as asked, or a new mission/status refusal with its reason.
  const MISSION_ANSWER_S = 10;
  // The plan the board holds: { checksum, items (its item count when this page has its upload, else null) }.
  function heldPlan(d) {
    const p = d && d.missionProgress;
    if (!p) return null;
    const items = d.mission && d.mission.checksum === p.planChecksum ? d.mission.plan.items.length : null;
    return { checksum: p.planChecksum, items };
  }
  function renderMissionButtons(d) {
    const held = heldPlan(d);
    for (const button of document.querySelectorAll('button[data-mission]')) button.disabled = !held;
    $('mission-item').disabled = !held;
    $('mission-item').max = String(held && held.items ? held.items - 1 : MISSION.MAX_ITEMS - 1);
    $('mission-buttons').title = held ? 'addressed to plan ' + hexName(held.checksum)
      : 'no plan on the board: upload one first';
  }
  // goto's item from its field: a whole number of the plan's items; anything else is refused here.
  function gotoItem(held) {
    const text = String($('mission-item').value).trim();
    const last = (held.items || MISSION.MAX_ITEMS) - 1;
    const item = /^[0-9]{1,3}$/.test(text) ? Number(text) : NaN;
    if (!(item <= last)) throw new Error('which item? a whole number 0…' + last
      + (held.items ? ' (the plan has ' + held.items + ' items)' : ''));
    return item;
  }
  function forgetMissionWait() {
    if (missionWait) clearTimeout(missionWait.timer);
    missionWait = null;
  }
  function missionAnswer() {
    const w = missionWait;
    const d = w && w.sent && drones.get(w.drone);
    if (!d) return;
    const answer = MISSION.commandAnswer(w, d.missionProgress, d.missionStatus);
    if (!answer) return;
    forgetMissionWait();
    showResult(w.what + ': ' + answer.text, answer.ok ? 'ok' : 'bad');
  }
  async function sendMissionCommand(command) {
    const d = selected();
    const what = 'mission ' + command;
    const held = heldPlan(d);
    forgetMissionWait();
    // A controller answer to an earlier button is not this one's.
    actionWait = null;
    if (!held) {
      showResult(what + ': ' + (d ? 'no plan on the board — upload one first' : 'no drone seen yet'), 'bad');
      return;
    }
    let bytes, item = 0;
    try {
      if (command === 'goto') item = gotoItem(held);
      bytes = MISSION.encodeCommand(senderId, command, item, held.checksum);
    } catch (e) {
      showResult(what + ': refused on this page, nothing sent — ' + String(e && e.message || e).slice(0, 200), 'bad');
      return;
    }
    const wait = { drone: d.id, command, item, checksum: held.checksum, before: d.missionProgress, sent: false,
      statusSequence: d.missionStatus ? d.missionStatus.sequence : null,
      what: what + (command === 'goto' ? ' ' + item : '') + ' (plan ' + hexName(held.checksum) + ')' };
    missionWait = wait;
    showResult(wait.what + ': sending…', 'warn');
    const spec = Q.TOPICS.missionCommand;
    try {
      await client.publish(Q.topic(spec, d.id), bytes, spec.qos, spec.retain);
    } catch (e) {
      if (missionWait === wait) missionWait = null;
      showResult(wait.what + ': not sent — ' + String(e && e.message || e), 'bad');
      return;
    }
    if (missionWait !== wait) return;
    wait.sent = true;
    showResult(wait.what + ': delivered, waiting for drone-controller…', 'warn');
    wait.timer = setTimeout(() => {
      if (missionWait !== wait) return;
      missionWait = null;
      const now = drones.get(wait.drone);
      const text = MISSION.commandTimeout(wait, now && now.missionProgress, MISSION_ANSWER_S);
      // A goto of the item already current: nothing to see, no refusal either; a warning, not an answer.
      showResult(wait.what + ': ' + text, text.startsWith('no refusal') ? 'warn' : 'bad');
    }, MISSION_ANSWER_S * 1000);
    // What arrived between the press and the broker's acknowledgement is already held.
    missionAnswer();
  }
  for (const button of document.querySelectorAll('button[data-mission]')) {
    button.onclick = () => sendMissionCommand(button.getAttribute('data-mission'));
  }

  $('release').onclick = () => act('release', (d) => publish(d.id, 'controlClaim',
    { senderId, action: 'release', controllerRunId: runOf(d, 'release') }));

  let emergencyArmed = null;
  for (const button of document.querySelectorAll('button[data-command]')) {
    const kind = button.getAttribute('data-command');
    button.onclick = () => {
      if (kind === 'emergency') {
        // Asks twice: the first click arms for 4 s, the second cuts the motors.
        if (!emergencyArmed) {
          button.classList.add('armed'); button.textContent = 'EMERGENCY: click again to cut the motors';
          emergencyArmed = setTimeout(disarm, 4000);
          return;
        }
        disarm();
      }
      act(kind, (d) => publish(d.id, 'command', { senderId, kind, controllerRunId: runOf(d, kind) }));
    };
    function disarm() {
      clearTimeout(emergencyArmed);
      emergencyArmed = null;
      button.classList.remove('armed');
      button.textContent = 'emergency';
    }
  }
  // Control held by a closed page would block every other pilot: give it back when the page goes away.
  window.addEventListener('pagehide', () => {
    for (const d of drones.values()) {
      if (d.controller && d.controller.pilotId === senderId) publish(d.id, 'controlClaim',
        { senderId, action: 'release', controllerRunId: d.controller.runId }).catch(() => {});
    }
  });

  // ---- the broker ----
  let client = null, everOnline = false;
  function renderBroker() {
    const { state, detail, retryAtMs } = broker;
    const retry = retryAtMs ? ' — retrying in ' + Math.max(0, Math.ceil((retryAtMs - Date.now()) / 1000)) + ' s' : '';
    const text = state === 'online' ? 'online' : state === 'offline' ? 'broker offline — ' + detail + retry
      : state === 'refused' ? 'refused: ' + detail + retry : 'connecting…';
    setText('broker', text, state);
  }
  // The countdown counts: redrawn more often than the once-a-second render.
  setInterval(() => { if (broker.retryAtMs) renderBroker(); }, 250);
  function connect() {
    if (client) client.stop();
    client = new MQTTClient({
      url: params.broker,
      clientId: senderId + '-' + Math.floor(Math.random() * 1e6),
      username: storage('quad-map-user') || params.user,
      password: storage('quad-map-password'),
      onStatus: (state, detail, retryAtMs) => {
        // After a reconnect the broker may have lost its retained presence (a restart without persistence): what
        // we knew is shown as unconfirmed until each service announces itself again.
        if (state === 'online' && everOnline) for (const d of drones.values()) for (
          const k in d.presence) d.presence[k] = 'unconfirmed';
        if (state === 'online') everOnline = true;
        // Everything shown was heard before this moment: stale from here until the broker is back.
        const downSince = state === 'online' ? null : broker.downSince || Date.now();
        broker = { state, detail, retryAtMs, downSince };
        renderBroker();
        scheduleRender();
        if (state === 'refused') $('login').style.display = 'block';
      },
      onMessage,
    });
    client.subscribe('quad/+/telemetry/#', 1);
    client.subscribe('quad/+/' + Q.TOPICS.presence.path + '/#', 1);
    for (const key of ['airspaceHeld', 'airspaceRoute', 'missionUpload', 'missionProgress', 'missionStatus',
      'missionAutopilot']) {
      client.subscribe('quad/+/' + Q.TOPICS[key].path, Q.TOPICS[key].qos);
    }
    client.start();
  }
  $('user').value = storage('quad-map-user') || params.user;
  $('login-toggle').onclick = () => {
    const f = $('login');
    f.style.display = f.style.display === 'block' ? 'none' : 'block';
  };
  $('login').onsubmit = (e) => {
    e.preventDefault();
    storage('quad-map-user', $('user').value.slice(0, 64));
    storage('quad-map-password', $('password').value.slice(0, 256));
    $('login').style.display = 'none';
    connect();
  };
  window.quadMapState = { drones, senderId, get badPayloads() { return badPayloads; } };
  connect();
  render();
})();

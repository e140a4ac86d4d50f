// The airspace on the page: whether a clicked point is one the controller would refuse (inside a keep-out zone,
// closer than the margin to one, outside every inclusion zone), so the page says so before anything is sent. Advisory:
// the controller decides (docs/airspace.md). Edges are straight in a plane of east/north metres around the point
// asked about (equirectangular; within the 10 km an airspace spans it differs from the controller's azimuthal
// equidistant plane by centimetres), a circle is every point within its radius of its centre.
(function (root) {
  'use strict';
  const R = 6371008.8, rad = Math.PI / 180;

  // East/north metres of p from origin (longitudes across the antimeridian taken the short way).
  function plane(origin) {
    const k = R * Math.cos(origin[0] * rad) * rad;
    return (p) => {
      let dLon = p[1] - origin[1];
      if (dLon > 180) dLon -= 360;
      if (dLon < -180) dLon += 360;
      return [dLon * k, (p[0] - origin[0]) * R * rad];
    };
  }

  // Even-odd rule over flat rings: inside the outer ring and no hole.
  function insideRings(rings) {
    let inside = false;
    for (const ring of rings) {
      for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
        const [xi, yi] = ring[i], [xj, yj] = ring[j];
        if ((yi > 0) !== (yj > 0) && 0 < (xj - xi) * (0 - yi) / (yj - yi) + xi) inside = !inside;
      }
    }
    return inside;
  }

  function distanceToSegment(a, b) {
    const dx = b[0] - a[0], dy = b[1] - a[1];
    const len2 = dx * dx + dy * dy;
    const t = len2 === 0 ? 0 : Math.max(0, Math.min(1, -(a[0] * dx + a[1] * dy) / len2));
    return Math.hypot(a[0] + t * dx, a[1] + t * dy);
  }

  // { inside, edgeM }: whether the origin is in the zone, and its distance to the zone's boundary.
  function relation(zone, toPlane) {
    if (zone.shape === 'circle') {
      const c = toPlane(zone.centre);
      const d = Math.hypot(c[0], c[1]);
      return { inside: d <= zone.radiusM, edgeM: Math.abs(d - zone.radiusM) };
    }
    const rings = zone.rings.map((ring) => ring.map(toPlane));
    let edgeM = Infinity;
    for (const ring of rings) {
      for (let i = 0; i < ring.length; i++) {
        edgeM = Math.min(edgeM, distanceToSegment(ring[i], ring[(i + 1) % ring.length]));
      }
    }
    return { inside: insideRings(rings), edgeM };
  }

  // Why the controller would refuse a target at point [lat, lon], or null. The reasons are the controller's.
  // Keep-out zones win over inclusion zones; several inclusion zones mean inside any of them.
  function judge(airspace, point) {
    if (!airspace || !airspace.zones || airspace.zones.length === 0) return null;
    const toPlane = plane(point);
    const margin = airspace.marginM || 0;
    const inclusions = [];
    for (const zone of airspace.zones) {
      const r = relation(zone, toPlane);
      if (zone.kind === 'keepOut') {
        if (r.inside) return { reason: 'target-refused-keep-out', zone: zone.name,
          text: `inside keep-out zone '${zone.name}'` };
        if (r.edgeM < margin) return { reason: 'target-refused-airspace-margin', zone: zone.name,
          text: `${r.edgeM.toFixed(1)} m from keep-out zone '${zone.name}', closer than the ${margin} m margin` };
      } else {
        inclusions.push({ zone, r });
      }
    }
    if (inclusions.length === 0) return null;
    const containing = inclusions.filter((z) => z.r.inside);
    if (containing.length === 0) return { reason: 'target-refused-outside-inclusion', zone: inclusions[0].zone.name,
      text: 'outside every inclusion zone' };
    // Of the zones around the point, the one whose edge is farthest: its margin is the union's (overlaps joined).
    const best = containing.reduce((a, b) => (b.r.edgeM > a.r.edgeM ? b : a));
    if (best.r.edgeM < margin) return { reason: 'target-refused-airspace-margin', zone: best.zone.name,
      text: `${best.r.edgeM.toFixed(1)} m from the edge of inclusion zone '${best.zone.name}', closer than the `
        + `${margin} m margin` };
    return null;
  }

  // The controller's way around keep-out zones (AirspaceRoutePlan, airspace/route) as the page draws it: `ahead`,
  // from the drone's position (else the route's start) through the corners not passed yet to the goal; `passed`, the
  // start through the corners already passed (drawn faint; empty before the first corner). null for no route.
  function routeLines(plan, position) {
    if (!plan || plan.purpose === 'none' || !Array.isArray(plan.corners)) return null;
    const next = Math.min(Math.max(Number(plan.nextCorner) || 0, 0), plan.corners.length);
    const passed = [plan.start, ...plan.corners.slice(0, next)];
    const from = position || passed[passed.length - 1];
    return { ahead: [from, ...plan.corners.slice(next), plan.goal], passed: passed.length > 1 ? passed : [] };
  }

  // The panel's words for a route: `around 'shed': leg 2 of 5` (`home around …` on a return), as `status` says it.
  function routeText(plan) {
    if (!plan || plan.purpose === 'none') return null;
    const zone = plan.zoneName ? "'" + plan.zoneName + "'" : 'a zone';
    return (plan.purpose === 'returnHome' ? 'home around ' : 'around ') + zone + ': leg ' + (plan.nextCorner + 1)
      + ' of ' + (plan.corners.length + 1);
  }

  const api = { judge, plane, insideRings, relation, routeLines, routeText };
  if (typeof module !== 'undefined' && module.exports) module.exports = api;
  else root.QuadZones = api;
})(typeof self !== 'undefined' ? self : this);

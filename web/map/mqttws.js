// A small MQTT 3.1.1 client over WebSocket for the live map: CONNECT (user/password), SUBSCRIBE, PUBLISH QoS 0/1,
// PUBACK, PINGREQ, reconnect with backoff. QoS 1 publishes not acknowledged when the connection drops are failed
// (never resent later: a stale takeoff or target must not fly minutes after the click).
(function (root) {
  'use strict';
  const enc = new TextEncoder();
  const dec = new TextDecoder();

  function str(s) { const b = enc.encode(s); return [b.length >> 8, b.length & 0xFF, ...b]; }
  function packet(first, body) {
    const len = []; let n = body.length;
    do { let d = n % 128; n = Math.floor(n / 128); if (n > 0) d |= 0x80; len.push(d); } while (n > 0);
    const out = new Uint8Array(1 + len.length + body.length);
    out[0] = first; out.set(len, 1); out.set(body, 1 + len.length);
    return out;
  }
  function concat(a, b) {
    const out = new Uint8Array(a.length + b.length);
    out.set(a);
    out.set(b, a.length);
    return out;
  }

  class MQTTClient {
    // options: url, clientId, username, password, keepaliveS (30), onStatus(state, detail, retryAtMs),
    // onMessage(topic, bytes, retained)
    constructor(options) {
      this.o = Object.assign({ keepaliveS: 30, minBackoffMs: 500, maxBackoffMs: 5000 }, options);
      this.subscriptions = [];
      this.pending = new Map();   // packet id → { resolve, reject }
      this.nextId = 1;
      this.backoffMs = this.o.minBackoffMs;
      this.connected = false;
      this.stopped = false;
    }

    start() { this.stopped = false; this.open(); }

    stop() {
      this.stopped = true;
      clearTimeout(this.retryTimer);
      if (this.ws) {
        try {
          if (this.connected) this.ws.send(Uint8Array.from([0xE0, 0]));
          this.ws.close();
        } catch (e) { /* closing anyway */ }
      }
    }

    status(state, detail, retryAtMs) {
      try { this.o.onStatus && this.o.onStatus(state, detail || '', retryAtMs); } catch (e) { console.error(e); }
    }

    open() {
      this.buffer = new Uint8Array(0);
      this.refusal = null;
      this.status('connecting', this.o.url);
      let ws;
      try { ws = new WebSocket(this.o.url, ['mqtt']); } catch (e) { this.scheduleReconnect(String(e)); return; }
      ws.binaryType = 'arraybuffer';
      this.ws = ws;
      ws.onopen = () => {
        let flags = 0x02;  // clean session
        const payload = [...str(this.o.clientId)];
        if (this.o.username) { flags |= 0x80; payload.push(...str(this.o.username)); }
        if (this.o.username && this.o.password) { flags |= 0x40; payload.push(...str(this.o.password)); }
        const k = this.o.keepaliveS;
        ws.send(packet(0x10, Uint8Array.from([...str('MQTT'), 4, flags, k >> 8, k & 0xFF, ...payload])));
      };
      ws.onmessage = (event) => {
        if (ws !== this.ws) return;
        this.buffer = concat(this.buffer, new Uint8Array(event.data));
        try { this.drain(); } catch (e) { console.error('mqtt: bad packet', e); ws.close(); }
      };
      ws.onclose = () => { if (ws === this.ws) this.lost(this.refusal || 'connection closed'); };
      ws.onerror = () => { /* onclose follows */ };
    }

    lost(reason) {
      const wasConnected = this.connected;
      this.connected = false;
      clearInterval(this.pingTimer);
      for (const [, p] of this.pending) p.reject(new Error('connection lost before the broker acknowledged'));
      this.pending.clear();
      if (wasConnected) this.backoffMs = this.o.minBackoffMs;
      this.scheduleReconnect(reason);
    }

    scheduleReconnect(reason) {
      if (this.stopped) return;
      const delay = Math.min(this.backoffMs, this.o.maxBackoffMs) * (0.75 + Math.random() * 0.5);
      this.backoffMs = Math.min(this.backoffMs * 2, this.o.maxBackoffMs);
      // The retry time, not a text: the page counts down to it.
      this.status(this.refusal ? 'refused' : 'offline', reason, Date.now() + delay);
      clearTimeout(this.retryTimer);
      this.retryTimer = setTimeout(() => this.open(), delay);
    }

    drain() {
      for (;;) {
        const b = this.buffer;
        if (b.length < 2) return;
        let len = 0, mult = 1, i = 1;
        for (;; i++) {
          if (i >= b.length) return;
          if (i > 4) throw new Error('bad remaining length');
          len += (b[i] & 0x7F) * mult; mult *= 128;
          if (!(b[i] & 0x80)) break;
        }
        const start = i + 1;
        if (b.length < start + len) return;
        const body = b.subarray(start, start + len);
        this.buffer = b.slice(start + len);
        this.handle(b[0], body);
      }
    }

    handle(first, body) {
      const type = first >> 4;
      if (type === 2) {           // CONNACK
        const code = body[1];
        if (code !== 0) {
          const why = { 1: 'protocol refused', 2: 'client id refused', 3: 'server unavailable',
            4: 'bad user name or password', 5: 'not authorized' }[code] || 'refused ' + code;
          this.refusal = why;
          this.ws.close();
          return;
        }
        this.connected = true;
        this.backoffMs = this.o.minBackoffMs;
        this.lastHeard = Date.now();
        clearInterval(this.pingTimer);
        this.pingTimer = setInterval(() => this.ping(), this.o.keepaliveS * 500);
        if (this.subscriptions.length) {
          const id = this.packetId();
          const topics = [];
          for (const [filter, qos] of this.subscriptions) topics.push(...str(filter), qos);
          this.ws.send(packet(0x82, Uint8Array.from([id >> 8, id & 0xFF, ...topics])));
        }
        this.status('online', this.o.url);
      } else if (type === 3) {    // PUBLISH
        const qos = (first >> 1) & 3;
        const n = (body[0] << 8) | body[1];
        const topic = dec.decode(body.subarray(2, 2 + n));
        let at = 2 + n;
        if (qos > 0) {
          const id = (body[at] << 8) | body[at + 1]; at += 2;
          this.ws.send(Uint8Array.from([qos === 1 ? 0x40 : 0x50, 2, id >> 8, id & 0xFF]));
        }
        this.lastHeard = Date.now();
        try {
          this.o.onMessage && this.o.onMessage(topic, body.slice(at), (first & 1) === 1);
        } catch (e) { console.error(e); }
      } else if (type === 4) {    // PUBACK
        const id = (body[0] << 8) | body[1];
        const p = this.pending.get(id);
        if (p) { this.pending.delete(id); p.resolve(); }
      } else if (type === 6) {    // PUBREL (never asked for: we subscribe at QoS ≤ 1); answer anyway
        this.ws.send(Uint8Array.from([0x70, 2, body[0], body[1]]));
      } else if (type === 13) {   // PINGRESP
        this.lastHeard = Date.now();
      }
    }

    ping() {
      if (!this.connected) return;
      if (Date.now() - this.lastHeard > this.o.keepaliveS * 1500) { this.ws.close(); return; }
      this.ws.send(Uint8Array.from([0xC0, 0]));
    }

    packetId() { const id = this.nextId; this.nextId = id >= 65535 ? 1 : id + 1; return id; }

    // Subscriptions are (re)made on every CONNACK.
    subscribe(filter, qos) { this.subscriptions.push([filter, qos || 0]); }

    // Resolves when sent (QoS 0) or acknowledged (QoS 1); rejects when offline or the connection drops first.
    // retain: the broker keeps it for later subscribers (the mission plan's topic).
    publish(topic, payload, qos, retain) {
      if (!this.connected) return Promise.reject(new Error('broker offline'));
      const bytes = typeof payload === 'string' ? enc.encode(payload) : payload;
      const head = str(topic);
      const flags = retain ? 1 : 0;
      if (!qos) { this.ws.send(packet(0x30 | flags, concat(Uint8Array.from(head), bytes))); return Promise.resolve(); }
      const id = this.packetId();
      return new Promise((resolve, reject) => {
        this.pending.set(id, { resolve, reject });
        this.ws.send(packet(0x32 | flags, concat(Uint8Array.from([...head, id >> 8, id & 0xFF]), bytes)));
      });
    }
  }

  if (typeof module !== 'undefined' && module.exports) module.exports = { MQTTClient };
  else root.MQTTClient = MQTTClient;
})(typeof self !== 'undefined' ? self : this);

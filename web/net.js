// The connection to qipai-server: one WebSocket at /ws speaking MessagePack (PROTOCOL.md).
// It says `hello` with the resume token kept in localStorage, reconnects by itself with a
// growing delay while the server is unreachable, answers requests by their `seq`, and keeps
// an estimate of the server's clock for smooth clocks (PROTOCOL.md §9.7).

import { encode, decode } from "./vendor/msgpack/index.mjs";

export const PROTOCOL_VERSION = 3;
const TOKEN_KEY = "qipai.resume_token";
const NAME_KEY = "qipai.name";

/** The name this browser plays under, or "" before one is chosen. */
export function storedName() {
  return localStorage.getItem(NAME_KEY) ?? "";
}

/** Remembers the name; a new name starts a new session, so the old token is dropped. */
export function storeName(name) {
  if (name !== storedName()) forgetSession();
  localStorage.setItem(NAME_KEY, name);
}

/**
 * Drops the resume token: the next `hello` starts a new session (after signing in or out,
 * the player is someone else even under the same name).
 */
export function forgetSession() {
  localStorage.removeItem(TOKEN_KEY);
}

/**
 * A request refused by the server: `code` is stable, `details` (optional) what the page
 * needs to say it in the player's language (errors.js); `message` is the server's English,
 * for developers and logs.
 */
export class ServerError extends Error {
  constructor(code, message, splits, details) {
    super(message);
    this.code = code;
    // With `declare_structure`: the throw's valid splits to choose from.
    this.splits = splits;
    this.details = details ?? null;
  }
}

/** A local millisecond counter, rounded: the protocol only takes integers. */
const now = () => Math.round(performance.now());

/**
 * The connection. States: "connecting", "online", "offline" (waiting to retry), "stopped"
 * (the session moved elsewhere; only `reconnect()` starts again).
 * Listeners: onState(state), onWelcome(welcome), onMessage(msg) for everything that is not
 * an answer to a pending request (joined, snapshot, event, shutdown, unmatched errors).
 */
export class Connection {
  constructor(name, { url = defaultUrl() } = {}) {
    this.name = name;
    this.url = url;
    this.state = "connecting";
    this.ws = null;
    this.nextSeq = 1;
    this.pending = new Map();
    this.retryDelay = 500;
    this.retryTimer = null;
    this.pingTimer = null;
    this.best = null; // the clock-offset sample with the smallest round trip
    this.playerId = null;
    this.onState = () => {};
    this.onWelcome = () => {};
    this.onMessage = () => {};
    window.addEventListener("online", () => this.retryNow());
    // Tabs of one browser share the token: the tab that last said hello holds the session,
    // and the others stop instead of taking it back and forth.
    this.tabs = new BroadcastChannel("qipai.session");
    this.tabs.onmessage = (e) => {
      if (e.data === "taken" && this.state !== "stopped") this.close();
    };
  }

  /** Opens the socket and says hello (with the resume token when there is one). */
  connect() {
    clearTimeout(this.retryTimer);
    this.setState("connecting");
    const ws = new WebSocket(this.url);
    ws.binaryType = "arraybuffer";
    this.ws = ws;
    ws.onopen = () => {
      const token = localStorage.getItem(TOKEN_KEY);
      this.sendRaw({ type: "hello", protocol_version: PROTOCOL_VERSION, name: this.name, resume_token: token });
    };
    ws.onmessage = (e) => {
      if (this.ws !== ws) return;
      let frame;
      try {
        frame = decode(new Uint8Array(e.data));
      } catch {
        return;
      }
      // A batch (an array) is every message one step of the room said to us, in order.
      for (const msg of Array.isArray(frame) ? frame : [frame]) this.receive(msg);
    };
    ws.onclose = () => {
      if (this.ws !== ws) return;
      this.ws = null;
      this.dropPending();
      clearInterval(this.pingTimer);
      if (this.state !== "stopped") this.scheduleRetry();
    };
    // An error is always followed by close, which does the work.
    ws.onerror = () => {};
  }

  /** Closes this session for good on this page (a new name starts another). */
  close() {
    this.setState("stopped");
    clearTimeout(this.retryTimer);
    clearInterval(this.pingTimer);
    this.ws?.close();
    this.ws = null;
  }

  /** After "stopped": connect again, taking the session back from wherever it went. */
  reconnect() {
    this.retryDelay = 500;
    this.connect();
  }

  /** Retries at once if waiting to retry (the browser came back online, or a button). */
  retryNow() {
    if (this.state === "offline") this.reconnect();
  }

  scheduleRetry() {
    this.setState("offline");
    clearTimeout(this.retryTimer);
    const jitter = Math.random() * 0.3 * this.retryDelay;
    this.retryTimer = setTimeout(() => this.connect(), this.retryDelay + jitter);
    this.retryDelay = Math.min(this.retryDelay * 2, 8000);
  }

  setState(state) {
    if (this.state === state) return;
    this.state = state;
    this.onState(state);
  }

  receive(msg) {
    switch (msg.type) {
      case "welcome":
        localStorage.setItem(TOKEN_KEY, msg.resume_token);
        this.playerId = msg.player_id;
        this.retryDelay = 500;
        this.observeTime(msg.server_time, null);
        this.setState("online");
        this.tabs.postMessage("taken");
        this.onWelcome(msg);
        this.syncClock();
        clearInterval(this.pingTimer);
        this.pingTimer = setInterval(() => this.syncClock(), 20000);
        return;
      case "pong":
        this.observeTime(msg.server_time, now() - msg.client_time);
        break;
      case "error":
        if (msg.seq == null) return this.sessionError(msg);
        break;
      default:
        break;
    }
    const seq = msg.seq;
    if (seq != null && this.pending.has(seq) && msg.type !== "snapshot") {
      const { resolve, reject } = this.pending.get(seq);
      this.pending.delete(seq);
      if (msg.type === "error") reject(new ServerError(msg.code, msg.message, msg.splits, msg.details));
      else resolve(msg);
      // `joined` is also the room's business: it says which seat we hold.
      if (msg.type !== "joined" && msg.type !== "left") return;
    }
    this.onMessage(msg);
  }

  /** Errors with no request to answer: those about the session close the connection. */
  sessionError(msg) {
    if (msg.code === "bad_resume_token") {
      // Too late, or the server restarted: start over as a new player.
      localStorage.removeItem(TOKEN_KEY);
      this.retryDelay = 0;
    } else if (msg.code === "playing_elsewhere" || msg.code === "closing") {
      // This session said hello elsewhere (another tab, browser or device), which holds
      // the seat now, or the connection misbehaved: reconnecting by ourselves would take
      // the seat back and forth. Only the player's "play here" (`reconnect`) takes it back.
      this.setState("stopped");
    }
    this.onMessage(msg);
  }

  /** Sends a request with a fresh `seq`; resolves with its answer, rejects with a ServerError. */
  request(body) {
    const seq = this.nextSeq++;
    return new Promise((resolve, reject) => {
      if (!this.ws || this.ws.readyState !== WebSocket.OPEN || this.state !== "online") {
        reject(new ServerError("offline", "Not connected to the server; trying again…"));
        return;
      }
      this.pending.set(seq, { resolve, reject });
      this.sendRaw({ ...body, seq });
    });
  }

  /** Sends without waiting for an answer (e.g. `snapshot`, whose answer carries no seq). */
  send(body) {
    if (this.ws?.readyState === WebSocket.OPEN) this.sendRaw({ ...body, seq: this.nextSeq++ });
  }

  sendRaw(body) {
    this.ws.send(encode(body));
  }

  dropPending() {
    for (const { reject } of this.pending.values()) {
      reject(new ServerError("offline", "The connection dropped; reconnecting…"));
    }
    this.pending.clear();
  }

  /** A few pings; each pong refines the clock offset. */
  syncClock() {
    for (let i = 0; i < 3; i++) {
      setTimeout(() => {
        this.request({ type: "ping", client_time: now() }).catch(() => {});
      }, i * 150);
    }
  }

  /** Keeps the offset from the sample with the smallest round trip (rtt null: unknown). */
  observeTime(serverTime, rtt) {
    const sample = { rtt: rtt ?? 1e9, offset: serverTime + (rtt ?? 0) / 2 - now() };
    if (!this.best || sample.rtt <= this.best.rtt) this.best = sample;
  }

  /** The server's clock now, in its own milliseconds. */
  serverNow() {
    return now() + (this.best?.offset ?? 0);
  }
}

function defaultUrl() {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  return `${scheme}//${location.host}/ws`;
}

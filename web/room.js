// The room the player is in, kept up to date by the rules of PROTOCOL.md §8.3: a snapshot
// replaces everything, events apply in `event_seq` order, a gap asks for a new snapshot.
// Per-game changes to the view are the game module's `applyEvent`.

import { t } from "./i18n.js";

/**
 * A name as this page says it: the server names its bots "Bot 2" (the seat's number; no
 * person may take a name of that form), said in the page's language ("机器人·2"); a
 * person's name as they chose it. For the lobby, the tables and the records alike.
 */
export function displayName(name) {
  const bot = /^Bot (\d+)$/.exec(name ?? "");
  return bot ? t("tl.bot_name", { n: Number(bot[1]) }) : name;
}

/**
 * A room's short number as people read it ("12" in 第 12 桌): the server's `number`, never
 * the 16-digit room id the wire names it by; "–" for a room without one (several nodes).
 */
export function tableNumber(number) {
  return number != null ? String(number) : "–";
}

/**
 * A table as people name it: a competition's table by its competition, round and table as
 * on the pairing sheet ("工会杯 · 第2轮 第5桌", the server's `title`), any other by its short
 * number ("第 12 桌").
 */
export function tableName(number, title) {
  if (title) return t("table.titled", { competition: title.competition, round: title.round, table: title.table });
  return t("table.number", { n: tableNumber(number) });
}

export class RoomState {
  /**
   * @param conn the Connection (to ask for a snapshot after a gap)
   * @param games { [game]: { applyEvent(view, event, you) } } (`you`: the seat, null for a spectator)
   */
  constructor(conn, games) {
    this.conn = conn;
    this.games = games;
    this.clear();
    this.onChange = () => {};
    this.onEvent = () => {};
  }

  clear() {
    this.roomId = null;
    this.number = null; // the short number people read (`tableNumber`)
    this.title = null; // a competition table's name (`tableName`)
    this.game = null;
    this.you = null;
    this.seats = [];
    this.view = null;
    this.lastSeq = 0;
    this.ready = false; // a snapshot has arrived since `joined`
    this.snapshotAsked = false;
  }

  requestSnapshot() {
    if (this.snapshotAsked) return;
    this.snapshotAsked = true;
    this.conn.send({ type: "snapshot" });
  }

  /** Handles the room's messages; returns whether the message was one. */
  handle(msg) {
    switch (msg.type) {
      case "joined":
        this.clear();
        this.roomId = msg.room_id;
        this.number = msg.number ?? null;
        this.title = msg.title ?? null;
        this.game = msg.game;
        this.you = msg.seat;
        this.onChange();
        return true;
      case "left":
        if (msg.room_id === this.roomId) {
          this.clear();
          this.onChange();
        }
        return true;
      case "snapshot":
        if (msg.room_id !== this.roomId) return true;
        this.you = msg.you;
        this.seats = msg.seats;
        this.view = msg.view;
        this.lastSeq = msg.event_seq;
        this.ready = true;
        this.snapshotAsked = false;
        this.onChange();
        return true;
      case "event":
        this.event(msg);
        return true;
      default:
        return false;
    }
  }

  event(msg) {
    if (msg.room_id !== this.roomId || !this.ready) return;
    if (msg.event_seq <= this.lastSeq) return;
    if (msg.event_seq > this.lastSeq + 1) {
      // Missed something: wait for a fresh snapshot and drop events until then.
      this.ready = false;
      this.requestSnapshot();
      return;
    }
    this.lastSeq = msg.event_seq;
    const ev = msg.event;
    if (ev.game === "room") this.applyRoomEvent(ev);
    // Events are enough: no snapshot is asked for except after a gap.
    else this.games[ev.game]?.applyEvent(this.view, ev, this.you);
    this.onEvent(ev, msg);
    this.onChange();
  }

  /** §8.4: seat changes, the same for every game. */
  applyRoomEvent(ev) {
    switch (ev.type) {
      case "joined":
        this.seats[ev.seat] = ev.player;
        break;
      case "left":
        this.seats[ev.seat] = null;
        break;
      case "away":
        if (this.seats[ev.seat]) this.seats[ev.seat].connected = false;
        break;
      case "back":
        if (this.seats[ev.seat]) this.seats[ev.seat].connected = true;
        break;
      default:
        break;
    }
  }
}

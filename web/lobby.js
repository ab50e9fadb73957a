// The lobby: quick play, creating a table with its options, and the open tables with their
// seats, to sit down at or to watch.

import { h, clear } from "./dom.js";

/** The time controls offered: the usual Fischer ones and the rules' presets (第6条). */
export const TIME_CONTROLS = [
  ["30+10", "30 min + 10 s a move (competition)"],
  ["10+5", "10 min + 5 s a move"],
  ["5+3", "5 min + 3 s a move"],
  ["3+2", "3 min + 2 s a move"],
  ["40/90,10/15", "6.1 · 40 moves in 90 min, then 10 per 15 min"],
  ["30/60,10/10", "6.2 · 30 moves in 60 min, then 10 per 10 min"],
  ["40/10,30/5", "6.3 · rapid: 40 moves in 10 min, then 30 per 5 min"],
  ["30/5", "6.4 · rapid: 30 moves in 5 min, repeating"],
  ["sd:30", "6.5 · 包干: 30 min for the whole game"],
];

const REFRESH_MS = 3000;

function timeControlSelect(id) {
  return h("select", { id, name: "time_control" },
    TIME_CONTROLS.map(([value, label]) => h("option", { value }, label)));
}

const STATUS = { waiting: "waiting", playing: "playing", over: "finished" };

export class Lobby {
  /** @param ctx { conn, toast(text), name, changeName() } */
  constructor(root, ctx) {
    this.root = root;
    this.ctx = ctx;
    this.timer = null;
    this.build();
  }

  build() {
    clear(this.root);
    this.tables = h("div", { class: "tables", id: "tables" }, h("p", { class: "muted" }, "Loading tables…"));
    const quickTc = timeControlSelect("quick-tc");
    const quick = h("form", { class: "panel quick", id: "quick-play", onsubmit: (e) => {
      e.preventDefault();
      this.enter({ type: "quick_play", options: { game: "xiangqi", time_control: quickTc.value } });
    } },
      h("h2", {}, "象棋 Xiangqi"),
      h("p", { class: "muted" }, "Meet the next player who wants the same clock."),
      h("label", {}, "Time control ", quickTc),
      h("button", { type: "submit", class: "primary", id: "btn-quick-xiangqi" }, "Quick play"));

    const tc = timeControlSelect("create-tc");
    const seat = h("select", { id: "create-seat" },
      h("option", { value: "0" }, "Red (moves first)"), h("option", { value: "1" }, "Black"));
    const limit = h("input", { id: "create-limit", type: "number", min: 1, max: 1000, value: 60 });
    const checks = h("input", { id: "create-checks", type: "checkbox", checked: true });
    const fen = h("input", { id: "create-fen", type: "text", placeholder: "the usual start", spellcheck: "false" });
    const create = h("form", { class: "panel create", id: "create", onsubmit: (e) => {
      e.preventDefault();
      const options = {
        game: "xiangqi",
        time_control: tc.value,
        natural_limit_moves: Number(limit.value) || 60,
        natural_limit_counts_checks: checks.checked,
      };
      if (fen.value.trim()) options.start_fen = fen.value.trim();
      this.enter({ type: "create_room", options, seat: Number(seat.value) });
    } },
      h("h2", {}, "New xiangqi table"),
      h("label", {}, "Time control ", tc),
      h("label", {}, "Your side ", seat),
      h("details", {},
        h("summary", {}, "More rules"),
        h("label", {}, "Draw after ", limit, " moves without a capture"),
        h("label", { class: "check" }, checks, " checks count toward that limit"),
        h("label", {}, "Start position (FEN) ", fen)),
      h("button", { type: "submit", id: "btn-create" }, "Create table"));

    const tlSeat = h("select", { id: "tl-create-seat" }, [0, 1, 2, 3].map((i) => h("option", { value: i }, `Seat ${i + 1}`)));
    const tlTurn = h("select", { id: "tl-turn" },
      [["15000", "15 s"], ["30000", "30 s"], ["60000", "60 s"]].map(([v, l]) => h("option", { value: v, selected: v === "30000" }, l)));
    const tlPenalty = h("input", { id: "tl-penalty", type: "number", min: 0, max: 300, step: 5, value: 20 });
    const tlRound = h("input", { id: "tl-round", type: "number", min: 0, max: 600, value: 0 });
    const tuolaji = h("form", { class: "panel quick", id: "tuolaji-play", onsubmit: (e) => e.preventDefault() },
      h("h2", {}, "拖拉机 Tuolaji"),
      h("p", { class: "muted" }, "Three decks, four players in two teams."),
      h("button", { type: "button", class: "primary", id: "btn-quick-tuolaji",
        onclick: () => this.enter({ type: "quick_play", options: { game: "tuolaji" } }) }, "Quick play"),
      h("details", {},
        h("summary", {}, "New Tuolaji table with its rules"),
        h("label", {}, "Your seat ", tlSeat),
        h("label", {}, "Time per play ", tlTurn),
        h("label", {}, "Failed-throw penalty ", tlPenalty),
        h("label", {}, "Round limit in minutes (0: none) ", tlRound),
        h("button", { type: "button", id: "btn-create-tuolaji", onclick: () => this.enter({
          type: "create_room",
          seat: Number(tlSeat.value),
          options: {
            game: "tuolaji", turn_ms: Number(tlTurn.value),
            throw_penalty: Number(tlPenalty.value), round_minutes: Number(tlRound.value),
          },
        }) }, "Create table")));

    this.root.append(
      h("div", { class: "lobby" },
        h("section", { class: "play" }, quick, create, tuolaji),
        h("section", { class: "panel open-tables" },
          h("div", { class: "row" }, h("h2", {}, "Open tables"),
            h("button", { class: "small", onclick: () => this.refresh() }, "Refresh")),
          this.tables)));
  }

  show() {
    this.root.hidden = false;
    this.refresh();
    clearInterval(this.timer);
    this.timer = setInterval(() => this.refresh(), REFRESH_MS);
  }

  hide() {
    this.root.hidden = true;
    clearInterval(this.timer);
  }

  /** Sends a request that seats (or seats to watch) this player; the room view follows. */
  async enter(request) {
    try {
      await this.ctx.conn.request(request);
    } catch (err) {
      this.ctx.toast(err.message);
    }
  }

  async refresh() {
    if (this.ctx.conn.state !== "online") return;
    let rooms;
    try {
      rooms = (await this.ctx.conn.request({ type: "list_rooms" })).rooms;
    } catch {
      return;
    }
    clear(this.tables);
    const open = rooms.filter((r) => r.status !== "over");
    if (!open.length) {
      this.tables.append(h("p", { class: "muted" }, "No tables yet: start one, or quick play."));
      return;
    }
    for (const room of open) this.tables.append(this.tableRow(room));
  }

  tableRow(room) {
    const o = room.options;
    const tuolaji = o.game === "tuolaji";
    const names = tuolaji ? ["Seat 1", "Seat 2", "Seat 3", "Seat 4"] : ["Red", "Black"];
    const seats = room.seats.map((s, i) => h("span", { class: `seat ${tuolaji ? "" : i === 0 ? "red" : "black"}` },
      `${names[i]}: `,
      s ? h("span", {}, h("span", { class: `dot ${s.connected ? "on" : "off"}` }), s.name)
        : room.status === "waiting" || (tuolaji && room.status === "playing")
          ? h("button", { class: "small", "data-join": `${room.room_id}:${i}`,
              onclick: () => this.enter({ type: "join", room_id: room.room_id, seat: i }) }, "Sit here")
          : h("span", { class: "muted" }, "empty")));
    return h("div", { class: "table-row", "data-room": room.room_id },
      h("div", { class: "table-info" },
        h("strong", {}, `#${room.room_id} ${tuolaji ? "拖拉机" : "象棋"}`),
        tuolaji ? h("span", { class: "tc" }, `${o.turn_ms / 1000} s a play`) : h("span", { class: "tc" }, o.time_control),
        o.start_fen ? h("span", { class: "muted" }, "custom start") : null,
        h("span", { class: `status ${room.status}` }, STATUS[room.status] ?? room.status),
        room.spectators ? h("span", { class: "muted" }, `${room.spectators} watching`) : null),
      h("div", { class: "table-seats" }, seats,
        h("button", { class: "small", "data-watch": room.room_id,
          onclick: () => this.enter({ type: "spectate", room_id: room.room_id }) }, "Watch")));
  }
}

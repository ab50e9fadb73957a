// The lobby: quick play, creating a table with its options, and the open tables with their
// seats, to sit down at or to watch.

import { h, clear, botBadge } from "./dom.js";
import { TEXT as DRAUGHTS, DRAUGHTS_TIME_CONTROLS } from "./draughts.js";

/** The time controls offered: the usual Fischer ones and the rules' presets (第6条). */
export const TIME_CONTROLS = [
  ["30+10", "30 min + 10 s a move"],
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

/**
 * The named presets the server knows (`preset` in a room's options): every option left out
 * is filled from the rules' competition settings (xiangqi 五(二)2, Tuolaji 五(一)3).
 */
export const PRESETS = {
  competition: "比赛 Competition",
};

/** What a table's preset is called in the lobby, or null for a table without one. */
export function presetName(preset) {
  return preset ? PRESETS[preset] ?? preset : null;
}

/** The xiangqi bot's strength: how long it thinks per move (`bot_think_ms`). */
export const BOT_STRENGTHS = [
  ["50", "Easy"],
  ["300", "Medium"],
  ["1500", "Strong"],
];

/** A seat's name with a mark when it is one of the server's bots. */
export function seatLabel(seat) {
  return h("span", { class: seat.bot ? "seat-name is-bot" : "seat-name" },
    seat.bot ? botBadge() : h("span", { class: `dot ${seat.connected ? "on" : "off"}` }), seat.name);
}

function timeControlSelect(id, controls = TIME_CONTROLS) {
  return h("select", { id, name: "time_control" },
    controls.map(([value, label]) => h("option", { value }, label)));
}

/**
 * A two-seat game's "play the bot" checkbox and strength list (ids `botsId`, `strengthId`);
 * `button` reads `botLabel` while it is ticked, else `createLabel`.
 */
function botChoice(botsId, strengthId, button, createLabel, botLabel) {
  const strength = h("select", { id: strengthId, disabled: true },
    BOT_STRENGTHS.map(([value, label]) => h("option", { value, selected: value === "300" }, label)));
  const bots = h("input", { id: botsId, type: "checkbox",
    onchange: () => {
      strength.disabled = !bots.checked;
      button.textContent = bots.checked ? botLabel : createLabel;
    } });
  return { bots, strength };
}

/** `create_room` for a two-seat game: the start position if given, the bot if chosen. */
function createRequest(options, fen, seat, { bots, strength }) {
  if (fen.value.trim()) options.start_fen = fen.value.trim();
  const request = { type: "create_room", options, seat: Number(seat.value) };
  if (bots.checked) {
    options.bot_think_ms = Number(strength.value);
    request.bots = true;
  }
  return request;
}

/** Each game's name in the list of tables, by the wire's game kind. */
const GAME_NAMES = { xiangqi: "象棋", tuolaji: "拖拉机", draughts: DRAUGHTS.gameZh };

/** The names of a two-seat game's seats (seat 0 first). */
const SIDE_NAMES = {
  xiangqi: [["Red", "red"], ["Black", "black"]],
  draughts: [[DRAUGHTS.white, "white"], [DRAUGHTS.black, "black"]],
};

/** The strength shown for a table's `bot_think_ms`: its BOT_STRENGTHS name, else the time. */
export function strengthName(ms) {
  if (ms == null) return "default";
  let name = `${ms} ms a move`;
  for (const [value, label] of BOT_STRENGTHS) if (ms === Number(value)) name = label.toLowerCase();
  return name;
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
      h("button", { type: "submit", class: "primary", id: "btn-quick-xiangqi" }, "Quick play"),
      h("button", { type: "button", id: "btn-quick-xiangqi-competition",
        title: "30 min + 10 s a move, draw after 40 moves without a capture (checks not counted), flag fall loses",
        onclick: () => this.enter({ type: "quick_play", options: { game: "xiangqi", preset: "competition" } }) },
      "Quick play: competition rules"));

    const tc = timeControlSelect("create-tc");
    const seat = h("select", { id: "create-seat" },
      h("option", { value: "0" }, "Red (moves first)"), h("option", { value: "1" }, "Black"));
    const limit = h("input", { id: "create-limit", type: "number", min: 1, max: 1000, value: 60 });
    const checks = h("input", { id: "create-checks", type: "checkbox", checked: true });
    const competition = h("input", { id: "create-competition", type: "checkbox",
      onchange: () => {
        for (const input of [tc, limit, checks]) input.disabled = competition.checked;
      } });
    const fen = h("input", { id: "create-fen", type: "text", placeholder: "the usual start", spellcheck: "false" });
    const createButton = h("button", { type: "submit", id: "btn-create" }, "Create table");
    const { bots, strength } = botChoice("create-bots", "create-bot-strength", createButton, "Create table", "Play the bot");
    const create = h("form", { class: "panel create", id: "create", onsubmit: (e) => {
      e.preventDefault();
      // The competition preset fills the clock and the natural limit itself (五(二)2).
      const options = competition.checked ? { game: "xiangqi", preset: "competition" } : {
        game: "xiangqi",
        time_control: tc.value,
        natural_limit_moves: Number(limit.value) || 60,
        natural_limit_counts_checks: checks.checked,
      };
      this.enter(createRequest(options, fen, seat, { bots, strength }));
    } },
      h("h2", {}, "New xiangqi table"),
      h("label", { class: "check" }, competition,
        " Competition rules (30 min + 10 s, draw after 40 moves without a capture, checks not counted)"),
      h("label", {}, "Time control ", tc),
      h("label", {}, "Your side ", seat),
      h("label", { class: "check" }, bots, " Play the bot (no need to wait for a person)"),
      h("label", {}, "Bot strength ", strength),
      h("details", {},
        h("summary", {}, "More rules"),
        h("label", {}, "Draw after ", limit, " moves without a capture"),
        h("label", { class: "check" }, checks, " checks count toward that limit"),
        h("label", {}, "Start position (FEN) ", fen)),
      createButton);

    const tlSeat = h("select", { id: "tl-create-seat" }, [0, 1, 2, 3].map((i) => h("option", { value: i }, `Seat ${i + 1}`)));
    const tlTurn = h("select", { id: "tl-turn" },
      [["15000", "15 s"], ["30000", "30 s"], ["60000", "60 s"]].map(([v, l]) => h("option", { value: v, selected: v === "30000" }, l)));
    const tlPenalty = h("input", { id: "tl-penalty", type: "number", min: 0, max: 300, step: 5, value: 20 });
    const tlRound = h("input", { id: "tl-round", type: "number", min: 0, max: 600, value: 0 });
    const tlBots = h("input", { id: "tl-bots", type: "checkbox" });
    const tuolaji = h("form", { class: "panel quick", id: "tuolaji-play", onsubmit: (e) => e.preventDefault() },
      h("h2", {}, "拖拉机 Tuolaji"),
      h("p", { class: "muted" }, "Three decks, four players in two teams."),
      h("button", { type: "button", class: "primary", id: "btn-quick-tuolaji",
        onclick: () => this.enter({ type: "quick_play", options: { game: "tuolaji" } }) }, "Quick play"),
      h("button", { type: "button", id: "btn-tuolaji-bots",
        onclick: () => this.enter({ type: "create_room", options: { game: "tuolaji" }, bots: true }) },
      "Play with three bots"),
      h("button", { type: "button", id: "btn-tuolaji-competition",
        title: "a 90-minute round, the last hand called at 75 minutes",
        onclick: () => this.enter({ type: "quick_play", options: { game: "tuolaji", preset: "competition" } }) },
      "Quick play: competition rules"),
      h("details", {},
        h("summary", {}, "New Tuolaji table with its rules"),
        h("label", {}, "Your seat ", tlSeat),
        h("label", {}, "Time per play ", tlTurn),
        h("label", {}, "Failed-throw penalty ", tlPenalty),
        h("label", {}, "Round limit in minutes (0: none) ", tlRound),
        h("label", { class: "check" }, tlBots, " Fill the other seats with bots"),
        h("button", { type: "button", id: "btn-create-tuolaji", onclick: () => this.enter({
          type: "create_room",
          seat: Number(tlSeat.value),
          options: {
            game: "tuolaji", turn_ms: Number(tlTurn.value),
            throw_penalty: Number(tlPenalty.value), round_minutes: Number(tlRound.value),
          },
          bots: tlBots.checked,
        }) }, "Create table")));

    this.root.append(
      h("div", { class: "lobby" },
        h("section", { class: "play" }, quick, create, this.draughtsForm(), tuolaji),
        h("section", { class: "panel open-tables" },
          h("div", { class: "row" }, h("h2", {}, "Open tables"),
            h("button", { class: "small", onclick: () => this.refresh() }, "Refresh")),
          this.tables)));
  }

  /** Draughts: quick play, or a new table with its clock, side, bot and start position. */
  draughtsForm() {
    const T = DRAUGHTS;
    const quickTc = timeControlSelect("dr-quick-tc", DRAUGHTS_TIME_CONTROLS);
    const tc = timeControlSelect("dr-create-tc", DRAUGHTS_TIME_CONTROLS);
    const seat = h("select", { id: "dr-create-seat" },
      h("option", { value: "0" }, T.whiteFirst), h("option", { value: "1" }, T.black));
    const fen = h("input", { id: "dr-fen", type: "text", placeholder: T.startFenPlaceholder, spellcheck: "false" });
    const create = h("button", { type: "button", id: "btn-create-draughts", onclick: () =>
      this.enter(createRequest({ game: "draughts", time_control: tc.value }, fen, seat, choice)) }, T.createTable);
    const choice = botChoice("dr-bots", "dr-bot-strength", create, T.createTable, T.playBotButton);
    const { bots, strength } = choice;
    return h("form", { class: "panel quick", id: "draughts-play", onsubmit: (e) => {
      e.preventDefault();
      this.enter({ type: "quick_play", options: { game: "draughts", time_control: quickTc.value } });
    } },
      h("h2", {}, T.lobbyTitle),
      h("p", { class: "muted" }, T.lobbyBlurb),
      h("label", {}, T.timeControl, quickTc),
      h("button", { type: "submit", class: "primary", id: "btn-quick-draughts" }, T.quickPlay),
      h("details", { id: "dr-create" },
        h("summary", {}, T.newTable),
        h("label", {}, T.timeControl, tc),
        h("label", {}, T.yourSide, seat),
        h("label", { class: "check" }, bots, T.playTheBot),
        h("label", {}, T.botStrength, strength),
        h("label", {}, T.startFen, fen),
        create));
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
    for (let attempt = 1; ; attempt++) {
      try {
        await this.ctx.conn.request(request);
        return;
      } catch (err) {
        // A table opened with bots can close before its creator sits down: the server may
        // seat its bots first, find the table empty of people and close it (`room_closed`).
        // Nobody was seated, so opening another is safe.
        if (request.type === "create_room" && request.bots && err.code === "room_closed" && attempt < 3) continue;
        this.ctx.toast(err.message);
        return;
      }
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
    const sides = SIDE_NAMES[o.game] ?? SIDE_NAMES.xiangqi;
    const names = tuolaji ? ["Seat 1", "Seat 2", "Seat 3", "Seat 4"] : sides.map(([name]) => name);
    // Free seats, and bots' seats, may be taken while the game allows it (PROTOCOL.md,
    // SeatInfo): xiangqi and draughts before the start, Tuolaji at any moment.
    const open = room.status === "waiting" || (tuolaji && room.status === "playing");
    const join = (i) => this.enter({ type: "join", room_id: room.room_id, seat: i });
    const seats = room.seats.map((s, i) => h("span", { class: `seat ${tuolaji ? "" : sides[i]?.[1] ?? ""}`, "data-seat": `${room.room_id}:${i}` },
      `${names[i]}: `,
      s ? seatLabel(s) : null,
      s?.bot && open
        ? h("button", { class: "small", "data-take": `${room.room_id}:${i}`, title: `take ${s.name}'s seat`,
            onclick: () => join(i) }, "Take this seat")
        : null,
      s ? null
        : open
          ? h("button", { class: "small", "data-join": `${room.room_id}:${i}`, onclick: () => join(i) }, "Sit here")
          : h("span", { class: "muted" }, "empty")));
    return h("div", { class: "table-row", "data-room": room.room_id },
      h("div", { class: "table-info" },
        h("strong", { "data-game": o.game }, `#${room.room_id} ${GAME_NAMES[o.game] ?? o.game}`),
        tuolaji ? h("span", { class: "tc" }, `${o.turn_ms / 1000} s a play`) : h("span", { class: "tc" }, o.time_control),
        !tuolaji && room.seats.some((s) => s?.bot) ? h("span", { class: "muted" }, `bot: ${strengthName(o.bot_think_ms)}`) : null,
        o.preset ? h("span", { class: "preset", "data-preset": o.preset }, presetName(o.preset)) : null,
        o.start_fen ? h("span", { class: "muted" }, "custom start") : null,
        h("span", { class: `status ${room.status}` }, STATUS[room.status] ?? room.status),
        room.spectators ? h("span", { class: "muted" }, `${room.spectators} watching`) : null),
      h("div", { class: "table-seats" }, seats,
        h("button", { class: "small", "data-watch": room.room_id,
          onclick: () => this.enter({ type: "spectate", room_id: room.room_id }) }, "Watch")));
  }
}

// The lobby: quick play, creating a table with its options, and the open tables with their
// seats, to sit down at or to watch.

import { h, clear, botBadge } from "./dom.js";
import { displayName, tableName } from "./room.js";
import { TEXT as DRAUGHTS } from "./draughts.js";
import { t, formatDuration } from "./i18n.js";
import { errorText } from "./errors.js";
import { api } from "./competition.js";

/** Where the entry code of the player's entry link (`/?entry=CODE`) is kept in the browser. */
const ENTRY_KEY = "qipai.entry_code";

/**
 * An entry link (`<site>/?entry=CODE`, from the director's entry list): the code is kept in
 * the browser like the session and taken out of the address bar (and history). Returns the
 * code kept, if any.
 */
export function takeEntryLink() {
  const params = new URLSearchParams(location.search);
  const code = params.get("entry");
  if (code) {
    localStorage.setItem(ENTRY_KEY, code.trim());
    params.delete("entry");
    const rest = params.toString();
    history.replaceState(null, "", location.pathname + (rest ? `?${rest}` : "") + location.hash);
  }
  return localStorage.getItem(ENTRY_KEY);
}
takeEntryLink();

/** Pages of `list_rooms` one refresh reads (the server's page is 50 rooms by default). */
const LIST_PAGES = 10;

/**
 * The server's one catalogue of games (`GET /api/games`, PROTOCOL.md "The catalogue of
 * games"): each game's seats, presets, offered time controls and bot levels, by the wire's
 * game kind. Read once, before the lobby is built; none when it cannot be read.
 */
const CATALOGUE = await fetch("/api/games")
  .then((res) => res.json())
  .then((body) => Object.fromEntries(body.games.map((g) => [g.game, g])))
  .catch(() => ({}));

/** One list of a game's catalogue entry (`time_controls`, `presets`, `bot_levels`). */
const listed = (game, key) => CATALOGUE[game]?.[key] ?? [];

/** The xiangqi time controls offered: the usual Fischer ones and the rules' presets (第6条);
 * each label is the i18n catalogue's `tc.<value>`. */
export const TIME_CONTROLS = listed("xiangqi", "time_controls");

/** The draughts time controls offered: Fischer ones and sudden death (labels `dr.tc.*`). */
const DRAUGHTS_TIME_CONTROLS = listed("draughts", "time_controls");

const REFRESH_MS = 3000;

/**
 * The named presets the server knows (`preset` in a room's options): every option left out
 * is filled from the rules' competition settings (xiangqi 五(二)2, Tuolaji 五(一)3).
 */
export const PRESETS = [...new Set(Object.values(CATALOGUE).flatMap((g) => g.presets))];

/** What a table's preset is called in the lobby, or null for a table without one. */
export function presetName(preset) {
  return preset ? (PRESETS.includes(preset) ? t(`preset.${preset}`) : preset) : null;
}

/** The xiangqi bot's strength: how long it thinks per move (`bot_think_ms`). */
export const BOT_STRENGTHS = [
  ["50", "easy"],
  ["300", "medium"],
  ["1500", "strong"],
];

/** The xiangqi bot's levels (`bot_level`), lowest first; `bot_think_ms` stays their time budget. */
export const XIANGQI_LEVELS = listed("xiangqi", "bot_levels");

/** The Tuolaji bots' levels (`bot_level`), lowest first; `expert` is the default. */
export const TUOLAJI_LEVELS = listed("tuolaji", "bot_levels");

/** A level list (id `id`): each level's name with its one-line description. */
function levelSelect(id, game, levels, selected) {
  return h("select", { id, name: "bot_level" },
    levels.map((level) => h("option", { value: level, selected: level === selected },
      t("level.option", { name: t(`${game}_level.${level}`), about: t(`${game}_level.${level}_about`) }))));
}

/** What a two-seat table's bots are shown as: their level (xiangqi), else their think time. */
function botsShown(o) {
  return o.game === "xiangqi" && XIANGQI_LEVELS.includes(o.bot_level) ? t(`xq_level.${o.bot_level}`) : strengthName(o.bot_think_ms);
}

/** A seat's name with a mark when it is one of the server's bots. */
export function seatLabel(seat) {
  return h("span", { class: seat.bot ? "seat-name is-bot" : "seat-name" },
    seat.bot ? botBadge() : h("span", { class: `dot ${seat.connected ? "on" : "off"}` }), displayName(seat.name));
}

function timeControlSelect(id, controls = TIME_CONTROLS, keys = "tc") {
  return h("select", { id, name: "time_control" },
    controls.map((value) => h("option", { value }, t(`${keys}.${value}`))));
}

/**
 * A two-seat game's "play the bot" checkbox and strength list (ids `botsId`, `strengthId`),
 * or the game's own `levels` list; `button` reads `botLabel` while it is ticked, else
 * `createLabel`.
 */
function botChoice(botsId, strengthId, button, createLabel, botLabel, levels = null) {
  const strength = levels ?? h("select", { id: strengthId },
    BOT_STRENGTHS.map(([value, key]) => h("option", { value, selected: value === "300" }, t(`bot.${key}_option`))));
  strength.disabled = true;
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
    if (strength.name === "bot_level") options.bot_level = strength.value;
    else options.bot_think_ms = Number(strength.value);
    request.bots = true;
  }
  return request;
}

/** `options` with `rated: true` when the form's rated box (if it has one) is ticked. */
function rated(options, box) {
  return box?.checked ? { ...options, rated: true } : options;
}

/** Each game's name in the list of tables, by the wire's game kind. */
const GAME_NAMES = Object.keys(CATALOGUE);

/** The names of a two-seat game's seats (seat 0 first). */
const SIDE_NAMES = {
  xiangqi: [["side.red", "red"], ["side.black", "black"]],
  draughts: [["dr.white", "white"], ["dr.black", "black"]],
};

/** The strength shown for a table's `bot_think_ms`: its BOT_STRENGTHS name, else the time. */
export function strengthName(ms) {
  if (ms == null) return t("bot.default");
  for (const [value, key] of BOT_STRENGTHS) if (ms === Number(value)) return t(`bot.${key}`);
  return t("bot.ms_a_move", { ms });
}


export class Lobby {
  /** @param ctx { conn, toast(text), account() (the signed-in account, or null) } */
  constructor(root, ctx) {
    this.root = root;
    this.ctx = ctx;
    this.timer = null;
    this.build();
  }

  /**
   * A form's "rated" box (id `id`) with its label, for a signed-in player; a guest gets
   * none, as only games between accounts (or against a bot level) are rated.
   */
  ratedBox(id) {
    if (!this.ctx.account?.()) return { box: null, label: null };
    const box = h("input", { id, type: "checkbox", name: "rated" });
    return { box, label: h("label", { class: "check", title: t("lobby.rated_title") }, box, " ", t("lobby.rated")) };
  }

  build() {
    clear(this.root);
    this.tables = h("div", { class: "tables", id: "tables", "aria-live": "polite" }, h("p", { class: "muted" }, t("lobby.loading")));
    const quickTc = timeControlSelect("quick-tc");
    const quickRated = this.ratedBox("quick-rated");
    const quick = h("form", { class: "panel quick", id: "quick-play", onsubmit: (e) => {
      e.preventDefault();
      this.enter({ type: "quick_play", options: rated({ game: "xiangqi", time_control: quickTc.value }, quickRated.box) });
    } },
      h("h2", {}, t("lobby.xiangqi")),
      h("p", { class: "muted" }, t("lobby.xiangqi_explain")),
      h("label", {}, t("lobby.time_control"), " ", quickTc),
      quickRated.label,
      h("button", { type: "submit", class: "primary", id: "btn-quick-xiangqi" }, t("lobby.quick_play")),
      h("button", { type: "button", id: "btn-quick-xiangqi-competition",
        title: t("lobby.xiangqi_competition_title"),
        onclick: () => this.enter({ type: "quick_play", options: { game: "xiangqi", preset: "competition" } }) },
      t("lobby.quick_competition")));

    const tc = timeControlSelect("create-tc");
    const seat = h("select", { id: "create-seat" },
      h("option", { value: "0" }, t("lobby.side_red")), h("option", { value: "1" }, t("lobby.side_black")));
    const limit = h("input", { id: "create-limit", type: "number", min: 1, max: 1000, value: 60 });
    const checks = h("input", { id: "create-checks", type: "checkbox", checked: true });
    const competition = h("input", { id: "create-competition", type: "checkbox",
      onchange: () => {
        for (const input of [tc, limit, checks]) input.disabled = competition.checked;
      } });
    const fen = h("input", { id: "create-fen", type: "text", placeholder: t("lobby.fen_placeholder"), spellcheck: "false" });
    const createButton = h("button", { type: "submit", id: "btn-create" }, t("lobby.create_table"));
    const createRated = this.ratedBox("create-rated");
    const { bots, strength } = botChoice("create-bots", "create-bot-strength", createButton, t("lobby.create_table"), t("lobby.play_bot"),
      levelSelect("create-bot-strength", "xq", XIANGQI_LEVELS, "casual"));
    const create = h("form", { class: "panel create", id: "create", onsubmit: (e) => {
      e.preventDefault();
      // The competition preset fills the clock and the natural limit itself (五(二)2).
      const options = competition.checked ? { game: "xiangqi", preset: "competition" } : {
        game: "xiangqi",
        time_control: tc.value,
        natural_limit_moves: Number(limit.value) || 60,
        natural_limit_counts_checks: checks.checked,
      };
      this.enter(createRequest(rated(options, createRated.box), fen, seat, { bots, strength }));
    } },
      h("h2", {}, t("lobby.new_xiangqi")),
      h("label", { class: "check" }, competition, " ", t("lobby.competition_rules")),
      h("label", {}, t("lobby.time_control"), " ", tc),
      h("label", {}, t("lobby.your_side"), " ", seat),
      h("label", { class: "check" }, bots, " ", t("lobby.play_bot_check")),
      h("label", {}, t("lobby.bot_level"), " ", strength),
      createRated.label,
      h("details", {},
        h("summary", {}, t("lobby.more_rules")),
        h("label", {}, t("lobby.natural_limit_before"), " ", limit, " ", t("lobby.natural_limit_after")),
        h("label", { class: "check" }, checks, " ", t("lobby.checks_count")),
        h("label", {}, t("lobby.start_fen"), " ", fen)),
      createButton);

    const tlSeat = h("select", { id: "tl-create-seat" }, [0, 1, 2, 3].map((i) => h("option", { value: i }, t("tl.seat", { n: i + 1 }))));
    const tlTurn = h("select", { id: "tl-turn" },
      ["15000", "30000", "60000"].map((v) => h("option", { value: v, selected: v === "30000" }, formatDuration(Number(v)))));
    const tlPenalty = h("input", { id: "tl-penalty", type: "number", min: 0, max: 300, step: 5, value: 20 });
    const tlRound = h("input", { id: "tl-round", type: "number", min: 0, max: 600, value: 0 });
    const tlBots = h("input", { id: "tl-bots", type: "checkbox" });
    const tlLevel = levelSelect("tl-bot-level", "tl", TUOLAJI_LEVELS, "expert");
    const tlRated = this.ratedBox("tl-rated");
    const tuolaji = h("form", { class: "panel quick", id: "tuolaji-play", onsubmit: (e) => e.preventDefault() },
      h("h2", {}, t("lobby.tuolaji")),
      h("p", { class: "muted" }, t("lobby.tuolaji_explain")),
      h("button", { type: "button", class: "primary", id: "btn-quick-tuolaji",
        onclick: () => this.enter({ type: "quick_play", options: rated({ game: "tuolaji" }, tlRated.box) }) }, t("lobby.quick_play")),
      h("button", { type: "button", id: "btn-tuolaji-bots",
        onclick: () => this.enter({ type: "create_room", options: rated({ game: "tuolaji", bot_level: tlLevel.value }, tlRated.box), bots: true }) },
      t("lobby.three_bots")),
      h("label", {}, t("lobby.bot_level"), " ", tlLevel),
      tlRated.label,
      h("button", { type: "button", id: "btn-tuolaji-competition",
        title: t("lobby.tuolaji_competition_title"),
        onclick: () => this.enter({ type: "quick_play", options: { game: "tuolaji", preset: "competition" } }) },
      t("lobby.quick_competition")),
      h("details", {},
        h("summary", {}, t("lobby.new_tuolaji")),
        h("label", {}, t("lobby.your_seat"), " ", tlSeat),
        h("label", {}, t("lobby.turn_time"), " ", tlTurn),
        h("label", {}, t("lobby.throw_penalty"), " ", tlPenalty),
        h("label", {}, t("lobby.round_minutes"), " ", tlRound),
        h("label", { class: "check" }, tlBots, " ", t("lobby.fill_bots")),
        h("button", { type: "button", id: "btn-create-tuolaji", onclick: () => this.enter({
          type: "create_room",
          seat: Number(tlSeat.value),
          options: rated({
            game: "tuolaji", turn_ms: Number(tlTurn.value),
            throw_penalty: Number(tlPenalty.value), round_minutes: Number(tlRound.value),
            bot_level: tlLevel.value,
          }, tlRated.box),
          bots: tlBots.checked,
        }) }, t("lobby.create_table"))));

    this.nextTable = h("section", { class: "panel next-table", id: "next-table", "aria-live": "polite", hidden: true });
    this.root.append(
      this.nextTable,
      h("div", { class: "lobby" },
        h("section", { class: "play" }, quick, create, this.draughtsForm(), tuolaji),
        h("section", { class: "panel open-tables" },
          h("div", { class: "row" }, h("h2", {}, t("lobby.open_tables")),
            h("button", { class: "small", onclick: () => this.refresh() }, t("lobby.refresh"))),
          this.tables)));
  }

  /** Draughts: quick play, or a new table with its clock, side, bot and start position. */
  draughtsForm() {
    const T = DRAUGHTS;
    const quickTc = timeControlSelect("dr-quick-tc", DRAUGHTS_TIME_CONTROLS, "dr.tc");
    const tc = timeControlSelect("dr-create-tc", DRAUGHTS_TIME_CONTROLS, "dr.tc");
    const seat = h("select", { id: "dr-create-seat" },
      h("option", { value: "0" }, T.whiteFirst), h("option", { value: "1" }, T.black));
    const fen = h("input", { id: "dr-fen", type: "text", placeholder: T.startFenPlaceholder, spellcheck: "false" });
    const drRated = this.ratedBox("dr-rated");
    const create = h("button", { type: "button", id: "btn-create-draughts", onclick: () =>
      this.enter(createRequest(rated({ game: "draughts", time_control: tc.value }, drRated.box), fen, seat, choice)) }, T.createTable);
    const choice = botChoice("dr-bots", "dr-bot-strength", create, T.createTable, T.playBotButton);
    const { bots, strength } = choice;
    return h("form", { class: "panel quick", id: "draughts-play", onsubmit: (e) => {
      e.preventDefault();
      this.enter({ type: "quick_play", options: rated({ game: "draughts", time_control: quickTc.value }, drRated.box) });
    } },
      h("h2", {}, T.lobbyTitle),
      h("p", { class: "muted" }, T.lobbyBlurb),
      h("label", {}, T.timeControl, " ", quickTc),
      drRated.label,
      h("button", { type: "submit", class: "primary", id: "btn-quick-draughts" }, T.quickPlay),
      h("details", { id: "dr-create" },
        h("summary", {}, T.newTable),
        h("label", {}, T.timeControl, " ", tc),
        h("label", {}, T.yourSide, " ", seat),
        h("label", { class: "check" }, bots, " ", T.playTheBot),
        h("label", {}, T.botStrength, " ", strength),
        h("label", {}, T.startFen, " ", fen),
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
        // A competition's table (PROTOCOL.md §17.3): its seats are taken with the entrant's
        // entry code. Ask for it, then join again with it.
        if (request.type === "join" && err.code === "bad_entry_code") {
          if (request.entry_code) this.ctx.toast(errorText(err));
          this.askEntryCode(request);
          return;
        }
        this.ctx.toast(errorText(err));
        return;
      }
    }
  }

  /** The form asking for an entry code before `request` (a `join`) is sent again with it. */
  askEntryCode(request) {
    this.root.querySelector("#entry-code-form")?.remove();
    const input = h("input", { id: "entry-code", name: "entry_code", autocomplete: "off", spellcheck: "false",
      required: true, placeholder: t("lobby.entry_code.placeholder") });
    const form = h("form", { class: "panel entry-code", id: "entry-code-form", role: "dialog",
      "aria-labelledby": "entry-code-title", onsubmit: (e) => {
        e.preventDefault();
        form.remove();
        this.enter({ ...request, entry_code: input.value.trim() });
      } },
      h("h2", { id: "entry-code-title" }, t("lobby.entry_code.title")),
      h("p", {}, t("lobby.entry_code.explain", { table: this.names?.get(request.room_id) ?? tableName(null, null) })),
      h("label", { for: "entry-code" }, t("lobby.entry_code.label")), input,
      h("button", { type: "submit", id: "entry-code-sit" }, t("lobby.entry_code.sit")),
      h("button", { type: "button", class: "secondary", onclick: () => form.remove() }, t("lobby.entry_code.cancel")));
    this.root.prepend(form);
    input.focus();
  }

  /**
   * "Your next table", for a player who opened their entry link: the competition, round,
   * table and seat, and a button that sits them there with their code (`POST /api/entry`);
   * signed in, a button that links the entry to the account (`POST /api/entry/link`,
   * PROTOCOL.md §17.2b). Without a code, a signed-in player's first linked entry
   * (`GET /api/account/entries`), whose seat the account takes without the code.
   */
  async refreshNextTable() {
    const code = localStorage.getItem(ENTRY_KEY);
    const box = this.nextTable;
    const signedIn = Boolean(this.ctx.account?.());
    if (!code && !signedIn) {
      box.hidden = true;
      return;
    }
    let v;
    try {
      v = code ? await api("/api/entry", { method: "POST", body: { code } })
        : (await api("/api/account/entries")).entries[0];
      if (!v) {
        box.hidden = true;
        return;
      }
    } catch (err) {
      if (err.code === "offline") return;
      // A reissued (or mistyped) code: forget it, and say so once.
      if (err.code === "bad_entry_code") localStorage.removeItem(ENTRY_KEY);
      clear(box);
      box.hidden = false;
      box.append(h("h2", {}, t("lobby.next.title")), h("p", { id: "next-table-error" }, errorText(err)));
      return;
    }
    const forget = code ? h("button", { type: "button", class: "secondary small", id: "btn-next-forget", onclick: () => {
      localStorage.removeItem(ENTRY_KEY);
      box.hidden = true;
    } }, t("lobby.next.forget")) : null;
    const link = code && signedIn ? h("button", { type: "button", class: "secondary small", id: "btn-next-link", onclick: async () => {
      try {
        await api("/api/entry/link", { method: "POST", body: { code } });
        this.ctx.toast(t("lobby.next.linked"));
      } catch (err) {
        this.ctx.toast(errorText(err));
      }
    } }, t("lobby.next.link")) : null;
    const lines = [h("p", { id: "next-table-who" }, t("lobby.next.who", { name: v.player_name, team: v.team, competition: v.name }))];
    if (v.round == null) lines.push(h("p", { id: "next-table-what" }, t("lobby.next.not_paired")));
    else if (v.bye) lines.push(h("p", { id: "next-table-what" }, t("lobby.next.bye", { round: v.round })));
    else if (v.table == null || v.room == null || v.result) lines.push(h("p", { id: "next-table-what" }, t("lobby.next.wait", { round: v.round })));
    else {
      lines.push(h("p", { id: "next-table-what" }, t("lobby.next.table", { round: v.round, table: v.table, seat: v.seat + 1 })),
        h("button", { type: "button", class: "primary", id: "btn-next-sit",
          onclick: () => this.enter({ type: "join", room_id: v.room, seat: v.seat, ...(code ? { entry_code: code } : {}) }) }, t("lobby.next.sit")));
    }
    clear(box);
    box.hidden = false;
    box.append(h("h2", {}, t("lobby.next.title")), ...lines, ...[link, forget].filter(Boolean));
  }

  async refresh() {
    this.refreshNextTable();
    if (this.ctx.conn.state !== "online") return;
    // The server answers `list_rooms` in pages (PROTOCOL.md §13, `limits.list_rooms_page`):
    // read on with `after` until there is no `next`, up to LIST_PAGES pages.
    const rooms = [];
    let after = null;
    try {
      for (let page = 0; page < LIST_PAGES; page += 1) {
        const answer = await this.ctx.conn.request(after === null ? { type: "list_rooms" } : { type: "list_rooms", after });
        rooms.push(...answer.rooms);
        after = answer.next ?? null;
        if (after === null) break;
      }
    } catch {
      return;
    }
    clear(this.tables);
    // Tables' names by room id, for the words about a table (the entry code's form).
    this.names = new Map(rooms.map((r) => [r.room_id, tableName(r.number, r.title)]));
    const open = rooms.filter((r) => r.status !== "over");
    if (!open.length) {
      this.tables.append(h("p", { class: "muted" }, t("lobby.no_tables")));
      return;
    }
    for (const room of open) this.tables.append(this.tableRow(room));
    if (after !== null) this.tables.append(h("p", { class: "muted" }, t("lobby.more_tables", { n: open.length })));
  }

  tableRow(room) {
    const o = room.options;
    const tuolaji = o.game === "tuolaji";
    const sides = SIDE_NAMES[o.game] ?? SIDE_NAMES.xiangqi;
    const names = tuolaji ? [1, 2, 3, 4].map((n) => t("tl.seat", { n })) : sides.map(([key]) => t(key));
    // Free seats, and bots' seats, may be taken while the game allows it (PROTOCOL.md,
    // SeatInfo): xiangqi and draughts before the start, Tuolaji at any moment.
    const open = room.status === "waiting" || (tuolaji && room.status === "playing");
    const join = (i) => this.enter({ type: "join", room_id: room.room_id, seat: i });
    const seats = room.seats.map((s, i) => h("span", { class: `seat ${tuolaji ? "" : sides[i]?.[1] ?? ""}`, "data-seat": `${room.room_id}:${i}` },
      t("lobby.seat_label", { seat: names[i] }),
      s ? seatLabel(s) : null,
      s?.bot && open
        ? h("button", { class: "small", "data-take": `${room.room_id}:${i}`, title: t("lobby.take_title", { name: s.name }),
            onclick: () => join(i) }, t("lobby.take_seat"))
        : null,
      s ? null
        : open
          ? h("button", { class: "small", "data-join": `${room.room_id}:${i}`, onclick: () => join(i),
              "aria-label": t("lobby.sit_label", { seat: names[i], table: tableName(room.number, room.title) }) }, t("lobby.sit_here"))
          : h("span", { class: "muted" }, t("lobby.empty"))));
    return h("div", { class: "table-row", "data-room": room.room_id },
      h("div", { class: "table-info" },
        h("strong", { "data-game": o.game }, t("lobby.table_title", { table: tableName(room.number, room.title),
          game: GAME_NAMES.includes(o.game) ? t(`game.${o.game}`) : o.game })),
        tuolaji ? h("span", { class: "tc" }, t("lobby.per_play", { time: formatDuration(o.turn_ms) }))
          : h("span", { class: "tc", title: TIME_CONTROLS.includes(o.time_control) ? t(`tc.${o.time_control}`) : null }, o.time_control),
        !tuolaji && room.seats.some((s) => s?.bot) ? h("span", { class: "muted" }, t("lobby.bot_strength_of", { strength: botsShown(o) })) : null,
        o.preset ? h("span", { class: "preset", "data-preset": o.preset }, presetName(o.preset)) : null,
        o.start_fen ? h("span", { class: "muted" }, t("lobby.custom_start")) : null,
        h("span", { class: `status ${room.status}` }, t(`lobby.status.${room.status}`)),
        room.spectators ? h("span", { class: "muted" }, t("lobby.watching", { count: room.spectators })) : null),
      h("div", { class: "table-seats" }, seats,
        h("button", { class: "small", "data-watch": room.room_id,
          "aria-label": t("lobby.watch_label", { table: tableName(room.number, room.title) }),
          onclick: () => this.enter({ type: "spectate", room_id: room.room_id }) }, t("lobby.watch"))));
  }
}

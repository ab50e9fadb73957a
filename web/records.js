// "My games" and the replay viewer: the finished games of the signed-in account
// (`GET /api/account/games`) or of a guest's name (`GET /api/players/{name}/games`), paged,
// and any finished game replayed step by step from its record (`GET /api/games/{id}`,
// shared as `#/games/{id}`). Positions are never computed here: the record's events go
// through the page's own folds (room.js `RoomState` with each game's `applyEvent`, as live
// play does), and the boards and the table are drawn by the games' own tables (xiangqi.js,
// draughts.js on duel.js, tuolaji.js) given the replayed room.

import { h, clear } from "./dom.js";
import { t, formatDateTime, formatList } from "./i18n.js";
import { RoomState, displayName, tableName } from "./room.js";
import { describeResult as xiangqiResult } from "./xiangqi.js";
import { describeResult as draughtsResult } from "./draughts.js";
import { cardRow } from "./tuolaji.js";
import { groupHand } from "./cards.js";

/**
 * Per game: where a position starts before the first event (the record's final view with
 * the game's progress taken out: the folds fill it in again), how the record is cut into
 * steps, a result's reason in words, the record file other software reads.
 */
const REPLAYS = {
  xiangqi: {
    start: (final) => ({
      ...final, status: "waiting", moves: [], last_move: null, result: null, draw_offer: null,
      legal_moves: [], in_check: false, first_move_deadline: null,
    }),
    steps: (events) => duelSteps(events, (ev) => ev.chinese),
    reason: (reason) => t(`xq.reason.${reason}`),
    file: "pgn",
    describe: xiangqiResult,
  },
  draughts: {
    start: (final) => ({
      ...final, status: "waiting", moves: [], last_move: null, result: null, draw_offer: null,
      legal_moves: [], must_capture: [], first_move_deadline: null,
    }),
    steps: (events) => duelSteps(events, (ev) => ev.notation),
    reason: (reason) => t(`dr.reason.${reason}`),
    file: "pdn",
    describe: draughtsResult,
  },
  tuolaji: {
    start: (final, you) => ({
      ...final, phase: { type: "waiting" }, hand: you == null ? null : [], played: [], bottom: null,
      bids: [], current_trick: null, previous_trick: null, defenders_point_cards: [],
      defenders_points: 0, card_counts: [0, 0, 0, 0], dealt: 0, auto: [null, null, null, null],
      last_result: null, last_hand: false, outcome: null, hint: null, legal_bids: [],
    }),
    steps: tuolajiSteps,
    reason: (reason) => t(`tl.end.${reason}`),
    file: null,
    seats: 4,
  },
};

/** The game's event (the record keeps room events too, tagged `game: "room"`). */
const eventOf = (entry) => entry.event;

/**
 * A two-seat game's steps: the start, then the position after each move (with the events
 * up to the next move: a draw offer, the result). `text(moved)` is the move as shown.
 * Returns [{ at, label, move }]: the step is the state after folding events 0..at.
 */
function duelSteps(events, text) {
  const moved = [];
  events.forEach((entry, i) => {
    const ev = eventOf(entry);
    if (ev.game !== "room" && ev.type === "moved") moved.push(i);
  });
  const last = events.length - 1;
  const steps = [{ at: moved.length ? moved[0] - 1 : last, label: t("records.start") }];
  moved.forEach((i, k) => {
    const ev = eventOf(events[i]);
    steps.push({ at: k + 1 < moved.length ? moved[k + 1] - 1 : last, label: text(ev) });
  });
  return steps;
}

/**
 * A Tuolaji record's steps, hand by hand: the deal (every seat's cards and the bids, just
 * before the dealer takes the bottom), the bottom (taken and put back), each trick once
 * won, and the hand's result with the level changes.
 */
function tuolajiSteps(events) {
  const steps = [];
  let hand = 0;
  let trick = 0;
  let bottom = null;
  const last = events.length - 1;
  events.forEach((entry, i) => {
    const ev = eventOf(entry);
    if (ev.game === "room") return;
    switch (ev.type) {
      case "hand_started":
        hand = ev.hand_number;
        trick = 0;
        bottom = { hand, taken: null, put_back: null };
        break;
      case "bottom_taken":
        // The dealt hands, with the six cards set aside as the bottom.
        if (ev.cards) bottom.taken = ev.cards;
        steps.push({ at: i - 1, label: t("records.tl.deal", { n: hand }), hand, bottom: { ...bottom } });
        break;
      case "bottom_put_back":
        if (ev.cards) bottom.put_back = ev.cards;
        steps.push({ at: i, label: t("records.tl.bottom"), hand, bottom: { ...bottom } });
        break;
      case "trick_won":
        trick += 1;
        steps.push({ at: i, label: t("records.tl.trick", { n: trick }), hand, trick, bottom: { ...bottom } });
        break;
      case "hand_over": {
        // The result with what follows it (the pause between hands, or the game's end).
        let end = events.findIndex((e, k) => k > i && eventOf(e).type === "hand_started");
        end = end < 0 ? last : end - 1;
        steps.push({ at: end, label: t("records.tl.result", { n: hand }), hand, result: true, bottom: { ...bottom } });
        break;
      }
      default:
        break;
    }
  });
  return steps;
}

/** A record's steps (see `duelSteps`, `tuolajiSteps`), or none for a game without a replay. */
export function replaySteps(record) {
  return REPLAYS[record.game]?.steps(record.events) ?? [];
}

/** A row's result from the seat's point of view: "Won — checkmate (将死)". */
export function outcomeText(row) {
  const r = row.result;
  const replay = REPLAYS[row.game];
  if (!r || !replay) return "–";
  const why = replay.reason(r.reason);
  const key = r.winners.includes(row.seat) ? "won" : r.winners.length ? "lost" : "no_winner";
  return t(`records.outcome.${key}`, { why });
}

/** Who else sat at the game: the opponent, or the partner and the opponents (Tuolaji). */
export function othersText(row) {
  const name = (i) => displayName(row.players?.[i]) || t("records.nobody");
  if (!row.players?.length) return "–";
  if (row.players.length === 4) {
    return t("records.partner_and_opponents", {
      partner: name((row.seat + 2) % 4),
      opponents: formatList([name((row.seat + 1) % 4), name((row.seat + 3) % 4)]),
    });
  }
  return t("records.against", { name: name(1 - row.seat) });
}

/** The link to a record's file other software reads (PGN for xiangqi, PDN for draughts). */
function fileLink(game, id) {
  const file = REPLAYS[game]?.file;
  if (!file) return null;
  return h("a", { href: `/api/games/${id}.${file}`, download: `qipai-${id}.${file}`, "data-file": file },
    t(`records.download_${file}`));
}

/**
 * A finished game as a row of a list of games (columns `records.col.*`): the game, when it
 * ended, who else sat there, the result from the row's seat, the replay and the file; a
 * rated game (an account's list) says so with the rating after it.
 */
export function recordRow(row) {
  const known = Boolean(REPLAYS[row.game]);
  return h("tr", { "data-room": row.room_id, "data-game": row.game, "data-rated": row.rated ? "true" : null },
    h("td", {}, known ? t(`game.${row.game}`) : row.game,
      row.title ? h("span", { class: "records-table-title" }, " · ", tableName(row.number, row.title)) : null,
      row.rated ? h("span", { class: "badge rated", title: t("ratings.rated_title") }, t("ratings.rated")) : null),
    h("td", {}, formatDateTime(row.finished_ms)),
    h("td", {}, othersText(row)),
    h("td", { class: "records-result" }, outcomeText(row),
      row.rating_after != null ? h("span", { class: "muted" }, " ", t("ratings.after", { rating: row.rating_after })) : null),
    h("td", { class: "records-links" },
      known ? h("a", { href: `#/games/${row.room_id}`, "data-replay": row.room_id,
        "aria-label": t("records.replay_label", { game: t(`game.${row.game}`), table: tableName(row.number, row.title) }) }, t("records.replay")) : null,
      " ", fileLink(row.game, row.room_id)));
}

/** The header row of a list of games. */
export function recordsHead() {
  return h("thead", {}, h("tr", {},
    ["game", "date", "players", "result", "links"].map((c) => h("th", { scope: "col" }, t(`records.col.${c}`)))));
}

/**
 * Folds a record's events through the page's own room state, once for each viewer in
 * `viewers` (null: a spectator; a seat number), and keeps a copy of every viewer's room at
 * each step. Returns [{ step, rooms: [{ view, seats, you }] }].
 */
export function foldRecord(record, games, viewers, steps) {
  const replay = REPLAYS[record.game];
  const rooms = viewers.map((you) => {
    const room = new RoomState({ send() {} }, games);
    room.handle({ type: "joined", room_id: record.room_id, game: record.game, seat: you });
    // The seats start from the record's names (a room reopened after a restart logs no
    // `joined` for them); the room events then say who was a bot.
    const seats = (record.players ?? []).map((name) => (name ? { name, connected: true, bot: false } : null));
    room.handle({ type: "snapshot", room_id: record.room_id, you, seats, view: replay.start(structuredClone(record.final), you), event_seq: 0 });
    return room;
  });
  const out = [];
  let next = 0;
  const take = (i) => {
    while (next < steps.length && steps[next].at === i) {
      out.push({ step: steps[next], rooms: rooms.map((r) => ({ view: structuredClone(r.view), seats: structuredClone(r.seats), you: r.you })) });
      next += 1;
    }
  };
  take(-1);
  record.events.forEach((entry, i) => {
    for (const room of rooms) room.handle({ type: "event", room_id: record.room_id, event_seq: i + 1, event: entry.event });
    take(i);
  });
  return out;
}

export class Records {
  /**
   * @param root the element to draw in
   * @param ctx { games (app.js' registry), name() (the player's name, or ""), account()
   *   (the signed-in account, or null), close() }
   */
  constructor(root, ctx) {
    this.root = root;
    this.ctx = ctx;
    this.page = 0;
    this.table = null;
    this.shown = null; // { list: page } or { id }
    root.addEventListener("keydown", (e) => this.keyDown(e), true);
  }

  /** Draws again in the current language. */
  build() {
    if (this.shown?.id != null) this.showGame(this.shown.id, this.at);
    else if (this.shown) this.showList(this.shown.list);
  }

  destroy() {
    this.table?.destroy();
    this.table = null;
    this.shown = null;
    clear(this.root);
  }

  header(title, ...more) {
    return h("div", { class: "records-head" },
      h("h2", { id: "records-title" }, title),
      ...more,
      h("button", { type: "button", id: "btn-records-close", onclick: () => this.ctx.close() }, t("records.close")));
  }

  // --- the list -------------------------------------------------------------------

  async showList(page = 0) {
    this.table?.destroy();
    this.table = null;
    this.shown = { list: page };
    this.page = page;
    // A signed-in player's games are the account's (its rated ones marked); a guest's, the
    // games of the name typed.
    const account = this.ctx.account();
    const name = account?.name ?? this.ctx.name();
    clear(this.root);
    this.root.append(this.header(t("records.my_games_of", { name: name || "–" })));
    if (!name) {
      this.root.append(h("p", { class: "muted" }, t("records.no_name")));
      return;
    }
    const body = h("div", { id: "records-list", "aria-live": "polite" }, h("p", { class: "muted" }, t("lobby.loading")));
    this.root.append(body);
    const path = account ? "/api/account/games" : `/api/players/${encodeURIComponent(name)}/games`;
    let answer;
    try {
      const res = await fetch(`${path}?page=${page}`, { credentials: "same-origin" });
      answer = res.ok ? await res.json() : { games: [], per_page: 20, unavailable: true };
    } catch {
      answer = { games: [], per_page: 20, unavailable: true };
    }
    if (this.shown?.list !== page) return;
    clear(body);
    if (answer.unavailable) body.append(h("p", { class: "muted" }, t("records.unavailable")));
    else if (!answer.games.length) body.append(h("p", { class: "muted" }, t(page ? "records.no_more" : "records.none")));
    else {
      body.append(h("table", { class: "records-table" },
        h("caption", { class: "visually-hidden" }, t("records.my_games")),
        recordsHead(),
        h("tbody", {}, answer.games.map(recordRow))));
    }
    body.append(h("nav", { class: "records-pages", "aria-label": t("records.pages") },
      h("button", { type: "button", id: "btn-records-prev", disabled: page === 0, onclick: () => this.showList(page - 1) }, t("records.previous")),
      h("span", { class: "muted" }, t("records.page", { n: page + 1 })),
      h("button", { type: "button", id: "btn-records-next", disabled: answer.games.length < answer.per_page,
        onclick: () => this.showList(page + 1) }, t("records.next"))));
  }

  // --- the replay -----------------------------------------------------------------

  /** The replay of game `id`, at step `at`. */
  async showGame(id, at = 0) {
    this.table?.destroy();
    this.table = null;
    this.shown = { id };
    clear(this.root);
    this.root.append(this.header(t("records.replay_title")), h("p", { class: "muted", id: "replay-loading" }, t("lobby.loading")));
    let record = null;
    try {
      const res = await fetch(`/api/games/${encodeURIComponent(id)}`);
      if (res.ok) record = await res.json();
    } catch {
      record = null;
    }
    if (this.shown?.id !== id) return;
    const replay = record && REPLAYS[record.game];
    if (!replay || !this.ctx.games[record.game]) {
      this.root.querySelector("#replay-loading").textContent = t("records.not_found");
      return;
    }
    this.record = record;
    this.replay = replay;
    const viewers = replay.seats ? [null, ...Array.from({ length: replay.seats }, (_, i) => i)] : [null];
    this.states = foldRecord(record, this.ctx.games, viewers, replaySteps(record));
    // The replayed room the game's table draws: a spectator's, moved from step to step.
    this.room = { roomId: record.room_id, number: record.number ?? null, title: record.title ?? null, game: record.game, you: null, seats: [], view: null, ready: true };
    this.buildReplay();
    this.go(at ?? 0);
    this.focusBox.focus();
  }

  buildReplay() {
    const r = this.record;
    clear(this.root);
    const title = t("records.replay_heading", {
      game: t(`game.${r.game}`), table: tableName(r.number, r.title), date: formatDateTime(r.finished_ms),
    });
    this.stepText = h("p", { class: "replay-step", id: "replay-step", "aria-live": "polite" });
    // Numbered from 0, the start (a move's number is its step's).
    this.stepList = h("ol", { class: "replay-steps", id: "replay-steps", start: "0", "aria-label": t("records.steps") });
    this.extra = h("div", { class: "replay-extra", id: "replay-extra" });
    const button = (id, key, step) => h("button", { type: "button", id, "aria-label": t(`records.${key}_label`),
      onclick: () => this.go(step()) }, t(`records.${key}`));
    this.focusBox = h("div", { class: "replay-controls", id: "replay", tabindex: "0", role: "group",
      "aria-label": t("records.controls"), "aria-describedby": "replay-help" },
      button("btn-replay-first", "first", () => 0),
      button("btn-replay-prev", "prev", () => this.at - 1),
      button("btn-replay-next", "next_step", () => this.at + 1),
      button("btn-replay-last", "last", () => this.states.length - 1));
    const boardBox = h("div", { class: `replay-board replay-${r.game}` });
    this.root.append(
      this.header(title, fileLink(r.game, r.room_id)),
      h("p", { class: "visually-hidden", id: "replay-help" }, t("records.keys_help")),
      h("div", { class: "replay" },
        boardBox,
        h("aside", { class: "replay-side panel" }, this.focusBox, this.stepText, this.stepList)),
      this.extra);
    this.states.forEach((s, i) => {
      this.stepList.append(h("li", {}, h("button", { type: "button", class: "link", "data-step": i,
        onclick: () => this.go(i) }, s.step.label)));
    });
    this.room.view = this.states[0]?.rooms[0].view ?? null;
    this.room.seats = this.states[0]?.rooms[0].seats ?? [];
    const serverNow = () => this.room.view?.clocks?.server_time ?? 0;
    const ctx = {
      conn: { serverNow, request: () => Promise.reject(new Error("replay")), send() {} },
      room: this.room, toast() {}, leave: () => this.ctx.close(),
    };
    this.table = this.room.view ? new this.ctx.games[r.game].Table(boardBox, ctx) : null;
  }

  /** Shows step `i` (clamped): the board or table, the step list's mark, the extras. */
  go(i) {
    if (!this.states?.length) return;
    this.at = Math.max(0, Math.min(this.states.length - 1, i));
    const state = this.states[this.at];
    this.room.view = state.rooms[0].view;
    this.room.seats = state.rooms[0].seats;
    if (this.table) {
      // A trick step shows the trick just won (the table's "previous trick").
      if ("showPrevious" in this.table) this.table.showPrevious = Boolean(state.step.trick);
      this.table.render();
    }
    for (const b of this.stepList.querySelectorAll("[data-step]")) {
      if (Number(b.dataset.step) === this.at) b.setAttribute("aria-current", "step");
      else b.removeAttribute("aria-current");
    }
    this.stepList.querySelector(`[data-step="${this.at}"]`)?.scrollIntoView?.({ block: "nearest" });
    this.stepText.textContent = t("records.step_of", { n: this.at, total: this.states.length - 1, what: state.step.label });
    this.root.dataset.at = String(this.at);
    this.renderExtra(state);
  }

  /** Tuolaji: every seat's cards at this step, the hand's bids and its bottom. */
  renderExtra(state) {
    clear(this.extra);
    if (!this.replay.seats) return;
    const spectator = state.rooms[0].view;
    const name = (seat) => displayName(this.record.players[seat]) || t("tl.seat", { n: seat + 1 });
    const hands = h("div", { class: "replay-hands", id: "replay-hands" });
    state.rooms.slice(1).forEach(({ view }, seat) => {
      const cards = groupHand(view.hand ?? [], view.trump, view.level_rank).flatMap((g) => g.cards);
      hands.append(h("div", { class: "replay-hand", "data-seat": seat },
        h("strong", {}, name(seat), spectator.dealer === seat ? ` · ${t("tl.dealer_badge")}` : ""),
        " ", h("span", { class: "muted" }, t("tl.card_count", { count: cards.length })), " ",
        cardRow(cards, "mini")));
    });
    const bids = spectator.bids.length
      ? h("ul", { class: "replay-bids", id: "replay-bids" }, spectator.bids.map((b) => h("li", {},
        t("tl.bid_line", { name: name(b.seat), kind: t(`tl.bid_kind.${b.kind}`) }), " ", cardRow(b.cards, "mini"))))
      : h("p", { class: "muted" }, t("records.tl.no_bids"));
    const bottom = state.step.bottom;
    this.extra.append(h("section", { class: "panel replay-tuolaji", "aria-label": t("records.tl.hands") },
      h("h3", {}, t("records.tl.hands")), hands,
      h("h3", {}, t("records.tl.bids")), bids,
      bottom?.taken ? h("p", { id: "replay-bottom-before" }, t("records.tl.bottom_before"), " ", cardRow(bottom.taken, "mini")) : null,
      bottom?.put_back ? h("p", { id: "replay-bottom-after" }, t("records.tl.bottom_after"), " ", cardRow(bottom.put_back, "mini")) : null));
  }

  /** ←/→ a step, Home/End the first and last; the board's own keys do not apply here. */
  keyDown(e) {
    if (this.shown?.id == null || !this.states) return;
    const moves = { ArrowLeft: this.at - 1, ArrowRight: this.at + 1, Home: 0, End: this.states.length - 1 };
    if (!(e.key in moves) || e.altKey || e.ctrlKey || e.metaKey) return;
    e.preventDefault();
    e.stopPropagation();
    this.go(moves[e.key]);
  }
}

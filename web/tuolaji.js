// The Tuolaji table: four seats around the current trick, the player's hand sorted by the
// hand's trump order and grouped by type, click or drag to select cards, the bids the server
// says are legal, the bottom exchange, levels, trump, dealer, defenders' points, whose turn with
// a countdown, and panels for a failed throw and a hand's result. The server holds every
// rule and every card: this file only draws the view and sends what the player chose.

import { h, clear, botBadge } from "./dom.js";
import { displayName, tableName } from "./room.js";
import { t, formatNumber } from "./i18n.js";
import { errorText, typeName } from "./errors.js";
import { chooseSplit } from "./declare.js";
import {
  SUITS, SUIT_SYMBOLS, cardLabel, isRed, groupHand, levelName,
} from "./cards.js";

/** A suit with its symbol, so that colour is never the only sign: "♥ 红桃". */
const suitText = (suit) => `${SUIT_SYMBOLS[suit]} ${typeName(suit)}`;

/**
 * One event's change to the view of seat `me` (null for a spectator): a line-by-line port
 * of the Rust fold `qipai_games::tuolaji::view::fold` (games/src/tuolaji/fold.rs), which a
 * property test proves gives exactly the server's snapshot after every step. The events are
 * enough: the phase, deadline and hint come in `turn`, a seat's legal bids in `legal_bids`, so the page never asks for a
 * snapshot except on joining, reconnecting or a gap in `event_seq`.
 */
export function applyEvent(view, ev, me) {
  switch (ev.type) {
    case "hand_started":
      Object.assign(view, {
        hand_number: ev.hand_number, hand: me != null ? [] : null, card_counts: [0, 0, 0, 0],
        dealt: 0, first_drawer: ev.first_drawer, dealer: ev.dealer, level_rank: ev.level_rank,
        trump: null, bids: [], current_trick: null, previous_trick: null, played: [],
        defenders_point_cards: [], defenders_points: 0, levels: ev.levels, bottom: null,
        round_ends_at: ev.round_ends_at ?? null,
      });
      break;
    case "dealt":
      addCount(view, ev.seat, 1);
      view.dealt += 1;
      if (me === ev.seat && ev.card) takeIn(view, [ev.card]);
      break;
    case "dealt_cards": // several at once (a deal without pauses)
      addCount(view, ev.seat, ev.count);
      view.dealt += ev.count;
      if (me === ev.seat && ev.cards.length) takeIn(view, ev.cards);
      break;
    case "deal_done":
      break; // the bid window's end comes with the `turn` that follows
    case "bid":
      view.bids.push({ seat: ev.seat, suit: ev.suit, kind: ev.kind, cards: ev.cards });
      break; // the trump is fixed only when bidding closes
    case "bidding_closed":
      view.dealer = ev.dealer;
      view.trump = ev.trump;
      break;
    case "trump_named":
      view.dealer = ev.dealer;
      view.trump = ev.suit;
      break;
    case "bottom_taken":
      addCount(view, ev.dealer, ev.count);
      if (me === ev.dealer) {
        takeIn(view, ev.cards);
        view.bottom = ev.cards;
      }
      break;
    case "bottom_put_back":
      addCount(view, ev.dealer, -ev.count);
      if (me === ev.dealer) {
        giveUp(view, ev.cards);
        view.bottom = ev.cards;
      }
      break;
    case "throw_failed":
      view.defenders_points = ev.defenders_points;
      break;
    case "led":
      view.previous_trick = null;
      view.current_trick = { leader: ev.seat, units: ev.units, plays: [], winner: null };
      play(view, me, ev.seat, ev.cards);
      break;
    case "followed":
      play(view, me, ev.seat, ev.cards);
      break;
    case "trick_won":
      if (view.current_trick) {
        view.current_trick.winner = ev.winner;
        view.previous_trick = view.current_trick;
        view.current_trick = null;
      }
      view.defenders_points = ev.defenders_points;
      view.defenders_point_cards.push(...(ev.captured ?? []));
      break;
    case "hand_over":
      view.defenders_points = ev.result.defenders_points;
      view.levels = ev.result.levels;
      view.bottom = ev.result.bottom;
      view.last_result = ev.result;
      break;
    case "auto":
      if (ev.seat >= 0 && ev.seat < view.auto.length) view.auto[ev.seat] = ev.reason;
      break;
    case "last_hand":
      view.last_hand = true;
      view.round_ends_at = ev.round_ends_at;
      break;
    case "game_over":
      view.outcome = ev.outcome;
      break;
    case "turn":
      view.phase = ev.phase;
      view.hint = ev.hint ?? null;
      break;
    case "legal_bids":
      if (me === ev.seat) view.legal_bids = ev.bids;
      break;
    default:
      break;
  }
}

/** `seat` played `cards` into the current trick (fold.rs `play`). */
function play(view, me, seat, cards) {
  view.current_trick?.plays.push({ seat, cards });
  addCount(view, seat, -cards.length);
  if (me === seat) {
    giveUp(view, cards);
    view.played.push(...cards);
  }
}

function addCount(view, seat, by) {
  if (seat >= 0 && seat < view.card_counts.length) {
    view.card_counts[seat] = Math.max(0, view.card_counts[seat] + by);
  }
}

const RANKS = "23456789TJQKA";
const SUIT_ORDER = "shcd";

/** A card's place in the cards' own order (games' `Card::index`): suit by suit, then jokers. */
function cardIndex(card) {
  if (card === "SJ") return 52;
  if (card === "BJ") return 53;
  return SUIT_ORDER.indexOf(card[1]) * 13 + RANKS.indexOf(card[0]);
}

/** The viewer's own cards with `cards` added, in the cards' order (fold.rs `take_in`). */
function takeIn(view, cards) {
  if (!view.hand) return;
  view.hand = [...view.hand, ...cards].sort((a, b) => cardIndex(a) - cardIndex(b));
}

/** The viewer's own cards with one of each of `cards` taken out (fold.rs `give_up`). */
function giveUp(view, cards) {
  if (!view.hand) return;
  for (const card of cards) {
    const i = view.hand.indexOf(card);
    if (i >= 0) view.hand.splice(i, 1);
  }
}

/** A card face: its rank and suit symbol (the colour is never the only sign). */
function cardEl(card, attrs = {}) {
  const label = cardLabel(card);
  const joker = card === "BJ" || card === "SJ";
  return h("span", { class: `card${isRed(card) ? " red" : ""}${joker ? " joker" : ""}`, "data-card": card, title: label, ...attrs },
    joker ? h("span", { class: "rank", "aria-hidden": "true" }, t(card === "BJ" ? "card.big_face" : "card.small_face"))
      : h("span", { class: "rank", "aria-hidden": "true" }, label.slice(0, -1)),
    h("span", { class: "suit", "aria-hidden": "true" }, joker ? t("card.joker_face") : label.slice(-1)));
}

/** Element.append, leaving out the `null`s of optional parts. */
function append(el, ...children) {
  el.append(...children.filter((c) => c != null && c !== false));
}

/** Cards in a row, named for screen readers as one list ("9♥ 9♥"). */
export function cardRow(cards, cls = "") {
  return h("span", { class: `cards ${cls}`, role: "img", "aria-label": cards.map(cardLabel).join(" ") || t("tl.no_cards") },
    cards.map((c) => cardEl(c)));
}

export class TuolajiTable {
  /** @param ctx { conn, room, toast(text), leave() } */
  constructor(root, ctx) {
    this.root = root;
    this.ctx = ctx;
    this.selected = new Set();
    this.handKey = "";
    this.showPrevious = false;
    this.notice = null;
    this.build();
    this.timer = setInterval(() => this.tick(), 250);
  }

  destroy() {
    clearInterval(this.timer);
    clearTimeout(this.noticeTimer);
    clearTimeout(this.leaveTimer);
    clear(this.root);
  }

  get view() {
    return this.ctx.room.view;
  }

  get me() {
    return this.ctx.room.you;
  }

  /** The seat drawn at the bottom: this page's, or seat 0 for a spectator. */
  get anchor() {
    return this.me ?? 0;
  }

  build() {
    clear(this.root);
    this.info = h("div", { class: "tl-info panel", id: "tl-info", role: "region", "aria-label": t("tl.info") });
    this.seats = [0, 1, 2, 3].map(() => h("div", { class: "tl-seat" }));
    this.center = h("div", { class: "tl-center", id: "tl-center", "aria-live": "polite" });
    this.actions = h("div", { class: "tl-actions", id: "tl-actions", role: "toolbar", "aria-label": t("tl.actions") });
    this.hand = h("div", { class: "tl-hand", id: "hand", role: "group", "aria-label": t("tl.hand") });
    this.wireHandSelection();
    // Positions around the table: the next seat in play order sits to the right.
    const pos = ["bottom", "right", "top", "left"];
    this.seats.forEach((el, i) => el.classList.add(`pos-${pos[i]}`));
    this.root.append(h("div", { class: "tl-layout" },
      this.info,
      h("div", { class: "tl-table" }, ...this.seats, this.center),
      this.actions,
      this.hand));
    this.render();
  }

  /** Click a card to select it; press and sweep across cards to select (or unselect) many. */
  wireHandSelection() {
    let sweep = null;
    const cardAt = (e) => document.elementFromPoint(e.clientX, e.clientY)?.closest?.("[data-index]");
    this.hand.addEventListener("pointerdown", (e) => {
      const el = cardAt(e);
      if (!el) return;
      e.preventDefault();
      const i = Number(el.dataset.index);
      const on = !this.selected.has(i);
      sweep = { on, seen: new Set([i]) };
      this.setSelected(i, on);
    });
    this.hand.addEventListener("pointermove", (e) => {
      if (!sweep) return;
      const el = cardAt(e);
      if (!el) return;
      const i = Number(el.dataset.index);
      if (sweep.seen.has(i)) return;
      sweep.seen.add(i);
      this.setSelected(i, sweep.on);
    });
    const end = () => { sweep = null; };
    window.addEventListener("pointerup", end);
    window.addEventListener("pointercancel", end);
    // The keyboard: one Tab stop for the hand (a roving tabindex), arrows and Home/End move
    // along it, Space or Enter selects the card under the cursor.
    this.hand.addEventListener("keydown", (e) => {
      const el = e.target.closest?.("[data-index]");
      if (!el) return;
      const i = Number(el.dataset.index);
      const last = (this.flatHand?.length ?? 1) - 1;
      const moves = { ArrowLeft: i - 1, ArrowUp: i - 1, ArrowRight: i + 1, ArrowDown: i + 1, Home: 0, End: last };
      if (e.key === " " || e.key === "Enter") {
        e.preventDefault();
        this.setSelected(i, !this.selected.has(i));
      } else if (e.key in moves) {
        e.preventDefault();
        this.focusCard(Math.max(0, Math.min(last, moves[e.key])));
      }
    });
  }

  /** Moves the hand's keyboard cursor to card `i` and focuses it. */
  focusCard(i) {
    this.focusIndex = i;
    for (const el of this.hand.querySelectorAll("[data-index]")) {
      el.tabIndex = Number(el.dataset.index) === i ? 0 : -1;
    }
    this.hand.querySelector(`[data-index="${i}"]`)?.focus();
  }

  setSelected(i, on) {
    if (on) this.selected.add(i);
    else this.selected.delete(i);
    const el = this.hand.querySelector(`[data-index="${i}"]`);
    el?.classList.toggle("selected", on);
    el?.setAttribute("aria-checked", String(on));
    this.renderActions();
  }

  /** The hand in display order. */
  sortedHand() {
    const v = this.view;
    return groupHand(v.hand ?? [], v.trump, v.level_rank);
  }

  selectedCards() {
    return this.flatHand.filter((_, i) => this.selected.has(i));
  }

  /** Selects exactly `cards` (a multiset) in the hand, e.g. the server's hint. */
  selectCards(cards) {
    this.selected.clear();
    let rest = [...cards];
    this.flatHand.forEach((c, i) => {
      const k = rest.indexOf(c);
      if (k >= 0) {
        this.selected.add(i);
        rest.splice(k, 1);
      }
    });
    this.renderHand(true);
    this.renderActions();
  }

  /**
   * A seat's name as this page says it: a server bot's in the page's language ("机器人·2"),
   * a person's as they chose it. The last name seen is kept, so the bots that leave at the
   * game's end are still named in its result.
   */
  name(seat) {
    const s = this.ctx.room.seats[seat];
    this.knownNames ??= [];
    if (s) this.knownNames[seat] = s.bot ? t("tl.bot_name", { n: seat + 1 }) : displayName(s.name);
    return this.knownNames[seat] ?? t("tl.seat", { n: seat + 1 });
  }

  /** Whether this page's seat must act now (for the turn cue). */
  myTurn() {
    const seat = this.turn().seat;
    return seat != null && seat === this.me;
  }

  /** The seat that must act now, and by when. */
  turn() {
    const p = this.view.phase;
    switch (p.type) {
      case "naming_trump":
      case "bottom":
        return { seat: p.dealer, deadline: p.deadline };
      case "leading":
      case "following":
        return { seat: p.seat, deadline: p.deadline };
      case "bidding":
        return { seat: null, deadline: p.closes_at };
      case "between_hands":
        return { seat: null, deadline: p.next_hand_at };
      case "trick_pause":
        return { seat: null, deadline: null };
      default:
        return { seat: null, deadline: null };
    }
  }

  render() {
    if (!this.view) return;
    this.renderInfo();
    this.renderSeats();
    this.renderCenter();
    this.renderHand(false);
    this.renderActions();
    this.tick();
  }

  renderInfo() {
    const v = this.view;
    const team = (k) => t("tl.team", { a: this.name(k), b: this.name(k + 2) });
    const dealerTeam = v.dealer == null ? null : v.dealer % 2;
    clear(this.info);
    append(this.info,
      h("span", { class: "tl-levels", id: "tl-levels" },
        [0, 1].map((k) => h("span", { class: `team${dealerTeam === k ? " dealing" : ""}` },
          t("tl.team_level", { team: team(k) }), h("strong", {}, levelName(v.levels[k]))))),
      h("span", {}, t("tl.level_rank"), " ", h("strong", { id: "tl-level-rank" }, v.level_rank ? levelName(RANK_LEVEL[v.level_rank]) : "–")),
      h("span", {}, t("tl.trump"), " ", h("strong", { id: "tl-trump", class: v.trump === "h" || v.trump === "d" ? "red" : "" },
        v.trump ? suitText(v.trump) : t("tl.trump_not_yet"))),
      h("span", {}, t("tl.dealer"), " ", h("strong", {}, v.dealer == null ? t("tl.dealer_to_bid") : this.name(v.dealer))),
      h("span", { class: "tl-points" }, t("tl.defenders"), " ", h("strong", { id: "tl-points" }, formatNumber(v.defenders_points)), " ",
        t("tl.points_unit"), " ", cardRow(v.defenders_point_cards, "mini")),
      v.last_hand ? h("span", { class: "warn" }, t("tl.last_hand")) : null,
      h("span", { class: "muted", id: "tl-table-number" }, tableName(this.ctx.room.number, this.ctx.room.title), " · ",
        t("tl.hand_number", { n: v.hand_number })),
      this.leaveButton());
  }

  /**
   * Leaving, at the top of the table, away from the play buttons under the thumb. A seated
   * player's first click only arms it (the server then plays the seat): a second click
   * within four seconds leaves, as resigning asks twice at xiangqi.
   */
  leaveButton() {
    const v = this.view;
    if (this.me == null) return h("button", { onclick: () => this.ctx.leave(), id: "btn-leave", class: "small" }, t("table.stop_watching"));
    if (v.phase.type === "over") return h("button", { onclick: () => this.ctx.leave(), id: "btn-leave", class: "small" }, t("table.back_to_lobby"));
    const armed = this.leaveArmed;
    return h("button", { id: "btn-leave", class: armed ? "small danger" : "small", onclick: () => {
      if (armed) {
        this.leaveArmed = false;
        this.ctx.leave();
        return;
      }
      this.leaveArmed = true;
      clearTimeout(this.leaveTimer);
      this.leaveTimer = setTimeout(() => { this.leaveArmed = false; this.renderInfo(); }, 4000);
      this.renderInfo();
    } }, armed ? t("tl.leave_confirm") : t("tl.leave"));
  }

  renderSeats() {
    const v = this.view;
    const turn = this.turn();
    const trick = (this.showPrevious || this.trickOnShow()) && v.previous_trick ? v.previous_trick : v.current_trick;
    for (let k = 0; k < 4; k++) {
      const seat = (this.anchor + k) % 4;
      const el = this.seats[k];
      el.dataset.seat = seat;
      const play = trick?.plays.find((p) => p.seat === seat);
      const info = this.ctx.room.seats[seat];
      clear(el);
      el.classList.toggle("to-act", turn.seat === seat);
      el.classList.toggle("winner", trick?.winner === seat);
      append(el,
        h("div", { class: "tl-name" },
          info?.bot ? botBadge() : h("span", { class: `dot ${info?.connected ? "on" : "off"}` }),
          seat === this.me ? t("tl.you") : this.name(seat),
          v.dealer === seat ? h("span", { class: "badge dealer", title: t("tl.dealer_title") }, t("tl.dealer_badge")) : null,
          v.auto[seat] ? h("span", { class: "badge auto" }, t(v.auto[seat] === "vacant" ? "tl.auto_vacant" : "tl.auto")) : null,
          trick?.winner === seat ? h("span", { class: "badge won", "data-won": seat }, t("tl.won_trick")) : null),
        h("div", { class: "tl-count muted" }, t("tl.card_count", { count: v.card_counts[seat] })),
        turn.seat === seat ? h("div", { class: "countdown", "data-deadline": turn.deadline }) : null,
        play ? cardRow(play.cards, "played") : h("span", { class: "cards played empty" }));
    }
  }

  /**
   * Whether the trick just won is on show: the server holds the next lead for the table's
   * `trick_pause_ms` (phase `trick_pause`), and this person has not skipped it. Skipping
   * only stops showing it here; the table's pace is the server's, the same for all.
   */
  trickOnShow() {
    const p = this.view.phase;
    return p.type === "trick_pause" && this.skippedPause !== p.leads_at;
  }

  renderCenter() {
    const v = this.view;
    clear(this.center);
    if (this.notice) {
      this.center.append(this.notice);
      return;
    }
    if (this.trickOnShow() && v.previous_trick) {
      const p = v.phase;
      this.center.append(h("div", { class: "tl-trick-won", id: "tl-trick-won", role: "status" },
        h("strong", {}, t("tl.trick_won_by", { name: p.winner === this.me ? t("tl.you") : this.name(p.winner) })), " ",
        h("button", { class: "small", id: "btn-skip-pause", onclick: () => {
          this.skippedPause = p.leads_at;
          this.renderSeats();
          this.renderCenter();
        } }, t("tl.skip_pause"))));
      return;
    }
    if (v.outcome) {
      const o = v.outcome;
      this.center.append(h("div", { class: "tl-panel", id: "tl-game-over" },
        h("strong", {}, o.winner == null ? t("tl.game_over_no_winner")
          : t("tl.game_won", { team: t("tl.team", { a: this.name(o.winner), b: this.name(o.winner + 2) }) })),
        h("span", {}, t("tl.game_end_why", { why: t(`tl.end.${o.reason}`), a: levelName(o.levels[0]), b: levelName(o.levels[1]) })),
        h("button", { onclick: () => this.ctx.leave() }, t("table.back_to_lobby"))));
      // The last hand's result stays under it: its bottom and the level change.
      if (v.last_result) this.center.append(this.resultPanel(v.last_result));
      return;
    }
    if (v.phase.type === "between_hands" && v.last_result) {
      this.center.append(this.resultPanel(v.last_result));
      return;
    }
    const p = v.phase.type;
    const text = ["waiting", "dealing", "bidding", "naming_trump", "bottom"].includes(p)
      ? t(`tl.phase.${p}`, { dealt: v.dealt, total: 156, dealer: v.phase.dealer != null ? this.name(v.phase.dealer) : "" })
      : null;
    if (text) this.center.append(h("div", { class: "tl-phase", id: "tl-phase" }, text));
    if (v.bids.length) {
      const b = v.bids[v.bids.length - 1];
      this.center.append(h("div", { class: "tl-bid" }, t("tl.bid_line", { name: this.name(b.seat), kind: t(`tl.bid_kind.${b.kind}`) }), " ", cardRow(b.cards, "mini")));
    }
    if (v.bottom && v.phase.type !== "between_hands") {
      this.center.append(h("div", { class: "tl-bottom" }, t("tl.bottom"), " ", cardRow(v.bottom, "mini")));
    }
  }

  resultPanel(r) {
    const team = t("tl.team", { a: this.name(r.change.team), b: this.name(r.change.team + 2) });
    const changed = t("tl.result.up", { team, count: r.change.steps });
    return h("div", { class: "tl-panel", id: "tl-result", role: "status" },
      h("strong", {}, t("tl.result.title", { points: r.defenders_points })),
      h("span", {}, t("tl.result.tricks", { points: r.trick_points }),
        r.penalty_points ? t("tl.result.penalties", { points: r.penalty_points }) : "",
        r.bottom_points ? t("tl.result.bottom_multiplied", { points: r.bottom_points, times: r.bottom_multiplier })
          : t("tl.result.bottom", { points: r.bottom_points })),
      h("span", {}, t("tl.bottom"), " ", cardRow(r.bottom, "mini"), ` ×${r.bottom_multiplier}`),
      h("span", {}, changed, ` → ${levelName(r.levels[0])} : ${levelName(r.levels[1])}`),
      h("span", { class: "muted" }, t("tl.result.next_dealer", { name: this.name(r.next_dealer) }),
        this.view.phase.type === "between_hands"
          ? h("span", {}, t("tl.result.next_hand_in"), h("span", { "data-deadline": this.view.phase.next_hand_at })) : null));
  }

  /** Shows a panel in the middle of the table for a while (a failed throw). */
  flash(panel, ms = 4000) {
    this.notice = panel;
    clearTimeout(this.noticeTimer);
    this.noticeTimer = setTimeout(() => { this.notice = null; this.renderCenter(); }, ms);
    this.renderCenter();
  }

  /** Called by the page for every event, after the view took it. */
  onEvent(ev) {
    if (ev.type === "throw_failed") {
      this.flash(h("div", { class: "tl-panel", id: "tl-throw-failed", role: "status" },
        h("strong", {}, t("tl.throw_failed", { name: this.name(ev.seat) })),
        h("span", {}, t("tl.throw_tried"), " ", cardRow(ev.attempted, "mini")),
        h("span", {}, t("tl.throw_beaten", { name: this.name(ev.beaten_by) }), " ", cardRow(ev.forced, "mini"), " ", t("tl.throw_forced")),
        h("span", {}, t("tl.throw_penalty", { penalty: `${ev.penalty > 0 ? "+" : ""}${ev.penalty}` }))));
    }
  }

  renderHand(keepSelection) {
    const v = this.view;
    const groups = this.sortedHand();
    const flat = groups.flatMap((g) => g.cards);
    // While the dealer exchanges the bottom, the six cards taken from it are marked in the
    // hand (a dashed edge, and said so to screen readers).
    const exchanging = v.phase.type === "bottom" && v.phase.dealer === this.me;
    const key = `${v.trump}|${v.level_rank}|${exchanging}|${flat.join(",")}`;
    if (key === this.handKey && !keepSelection) return;
    if (key !== this.handKey && !keepSelection) this.selected.clear();
    this.handKey = key;
    this.flatHand = flat;
    const hadFocus = this.hand.contains(document.activeElement);
    this.focusIndex = Math.min(this.focusIndex ?? 0, Math.max(0, flat.length - 1));
    clear(this.hand);
    if (v.hand == null) {
      this.hand.append(h("p", { class: "muted" }, t("tl.watching_hidden")));
      return;
    }
    const fromBottom = exchanging ? [...(v.bottom ?? [])] : [];
    let i = 0;
    for (const g of groups) {
      const groupName = g.type === "trump" ? t("tl.group_trump") : suitText(g.type);
      const row = h("div", { class: `tl-group type-${g.type}`, role: "group", "aria-label": groupName },
        h("span", { class: "tl-type", "aria-hidden": "true" }, g.type === "trump" ? groupName
          : [SUIT_SYMBOLS[g.type], h("span", { class: "tl-type-name" }, ` ${typeName(g.type)}`)]));
      for (const card of g.cards) {
        const on = this.selected.has(i);
        const k = fromBottom.indexOf(card);
        if (k >= 0) fromBottom.splice(k, 1);
        const label = g.type === "trump" ? t("tl.card_trump", { card: cardLabel(card) }) : cardLabel(card);
        // A checkbox per card: Tab reaches the hand, arrows move along it, Space or Enter
        // selects (the whole hand playable with the keyboard).
        row.append(cardEl(card, {
          "data-index": i, role: "checkbox", "aria-checked": String(on), tabindex: i === this.focusIndex ? "0" : "-1",
          "aria-label": k >= 0 ? t("tl.card_from_bottom", { card: label }) : label,
          "data-from-bottom": k >= 0 ? "" : null,
        }));
        row.lastChild.classList.toggle("selected", on);
        i += 1;
      }
      this.hand.append(row);
    }
    if (hadFocus) this.focusCard(this.focusIndex);
  }

  renderActions() {
    const v = this.view;
    const me = this.me;
    clear(this.actions);
    const p = v.phase;
    const add = (...els) => this.actions.append(...els);
    if (me == null) {
      this.previousButton(add);
      return;
    }
    const hint = v.hint;
    if ((p.type === "dealing" || p.type === "bidding") && v.hand) {
      // The bids the server says this seat may make now (第十条; the rule is in games).
      for (const cards of v.legal_bids ?? []) {
        const standing = v.bids[v.bids.length - 1];
        const kind = !standing ? "bid" : standing.seat === me ? "strengthen" : "counter_bid";
        add(h("button", { class: "bid", "data-bid": cards.join(" "), onclick: () => this.act({ type: "bid", cards }),
          "aria-label": `${t(`tl.bid_kind.${kind}`)} ${cards.map(cardLabel).join(" ")}` },
          t(`tl.bid_kind.${kind}`), " ", cardRow(cards, "mini")));
      }
    } else if (p.type === "naming_trump" && p.dealer === me) {
      add(h("span", {}, t("tl.name_trump")));
      for (const suit of SUITS) {
        add(h("button", { "data-suit": suit, onclick: () => this.act({ type: "name_trump", suit }) }, suitText(suit)));
      }
    } else if (p.type === "bottom" && p.dealer === me) {
      const n = this.selected.size;
      add(h("span", {}, t("tl.choose_bottom")),
        h("button", { class: "primary", id: "btn-put-back", disabled: n !== 6,
          onclick: () => this.act({ type: "put_back", cards: this.selectedCards() }) }, t("tl.put_back", { n })));
      if (hint?.cards) add(h("button", { id: "btn-hint", onclick: () => this.selectCards(hint.cards) }, t("tl.suggest")));
    } else if ((p.type === "leading" || p.type === "following") && p.seat === me) {
      const n = this.selected.size;
      // Between a trick's last play and the step's `turn`, the phase may still name this
      // seat while the trick has already moved to `previous_trick`.
      const need = p.type === "following" ? v.current_trick?.plays[0]?.cards.length ?? null : null;
      add(h("span", {}, p.type === "leading" ? t("tl.your_lead") : t("tl.follow_with", { count: need ?? 0 })),
        h("button", { class: "primary", id: "btn-play", disabled: need ? n !== need : n === 0,
          onclick: () => this.act({ type: p.type === "leading" ? "lead" : "follow", cards: this.selectedCards() }) },
          p.type === "leading" ? t("tl.lead") : t("tl.follow")));
      if (hint?.cards) add(h("button", { id: "btn-hint", onclick: () => this.selectCards(hint.cards) }, t("tl.suggest")));
    }
    if (this.selected.size) add(h("button", { class: "small", id: "btn-clear", onclick: () => { this.selected.clear(); this.renderHand(true); this.renderActions(); } }, t("tl.clear")));
    this.previousButton(add);
  }

  previousButton(add) {
    if (!this.view.previous_trick) return;
    add(h("button", { class: "small", id: "btn-previous", "aria-pressed": String(this.showPrevious), onclick: () => {
      this.showPrevious = !this.showPrevious;
      this.renderSeats();
      this.renderActions();
    } }, this.showPrevious ? t("tl.show_current") : t("tl.previous_trick")));
  }

  async act(action) {
    try {
      await this.ctx.conn.request({ type: "tuolaji", action });
      this.selected.clear();
    } catch (err) {
      if (err.code === "declare_structure" && err.splits) {
        const declared = await chooseSplit(this.root, err.splits, (cards) => cardRow(cards));
        if (declared) await this.act({ ...action, declared });
      } else this.ctx.toast(errorText(err));
    }
  }

  /** The countdowns, four times a second. */
  tick() {
    const now = this.ctx.conn.serverNow();
    for (const el of this.root.querySelectorAll("[data-deadline]")) {
      const left = Math.max(0, Math.ceil((Number(el.dataset.deadline) - now) / 1000));
      el.textContent = t("time.seconds", { n: left });
      el.classList.toggle("low", left <= 5);
    }
  }
}

/** A level rank letter to its level number. */
const RANK_LEVEL = { 2: 2, 3: 3, 4: 4, 5: 5, 6: 6, 7: 7, 8: 8, 9: 9, T: 10, J: 11, Q: 12, K: 13, A: 14 };

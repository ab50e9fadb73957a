// The Tuolaji table: four seats around the current trick, the player's hand sorted by the
// hand's trump order and grouped by type, click or drag to select cards, the bids the server
// says are legal, the bottom exchange, levels, trump, dealer, defenders' points, whose turn with
// a countdown, and panels for a failed throw and a hand's result. The server holds every
// rule and every card: this file only draws the view and sends what the player chose.

import { h, clear, botBadge } from "./dom.js";
import { chooseSplit } from "./declare.js";
import {
  SUITS, SUIT_SYMBOLS, SUIT_NAMES, cardLabel, isRed, groupHand, levelName,
} from "./cards.js";

const TYPE_NAMES = { trump: "Trumps 主", s: "♠", h: "♥", c: "♣", d: "♦" };
const BID_KIND = { bid: "Bid", strengthen: "Strengthen", counter_bid: "Counter-bid (反揭)" };
const GAME_END = {
  past_ace: "a team went past A",
  round_time: "the round's time ran out",
  forfeit: "forfeit",
  abandoned: "every seat was left",
};

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

/** A card face. */
function cardEl(card, attrs = {}) {
  const label = cardLabel(card);
  const joker = card === "BJ" || card === "SJ";
  return h("span", { class: `card${isRed(card) ? " red" : ""}${joker ? " joker" : ""}`, "data-card": card, title: label, ...attrs },
    joker ? h("span", { class: "rank" }, card === "BJ" ? "大" : "小") : h("span", { class: "rank" }, label.slice(0, -1)),
    h("span", { class: "suit" }, joker ? "王" : label.slice(-1)));
}

/** Element.append, leaving out the `null`s of optional parts. */
function append(el, ...children) {
  el.append(...children.filter((c) => c != null && c !== false));
}

function cardRow(cards, cls = "") {
  return h("span", { class: `cards ${cls}` }, cards.map((c) => cardEl(c)));
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
    this.info = h("div", { class: "tl-info panel", id: "tl-info" });
    this.seats = [0, 1, 2, 3].map(() => h("div", { class: "tl-seat" }));
    this.center = h("div", { class: "tl-center", id: "tl-center" });
    this.actions = h("div", { class: "tl-actions", id: "tl-actions" });
    this.hand = h("div", { class: "tl-hand", id: "hand" });
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
  }

  setSelected(i, on) {
    if (on) this.selected.add(i);
    else this.selected.delete(i);
    this.hand.querySelector(`[data-index="${i}"]`)?.classList.toggle("selected", on);
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

  name(seat) {
    const s = this.ctx.room.seats[seat];
    return s ? s.name : `Seat ${seat + 1}`;
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
    const team = (t) => `${this.name(t)} & ${this.name(t + 2)}`;
    const dealerTeam = v.dealer == null ? null : v.dealer % 2;
    clear(this.info);
    append(this.info,
      h("span", { class: "tl-levels", id: "tl-levels" },
        [0, 1].map((t) => h("span", { class: `team${dealerTeam === t ? " dealing" : ""}` },
          `${team(t)}: `, h("strong", {}, levelName(v.levels[t]))))),
      h("span", {}, "Level rank ", h("strong", { id: "tl-level-rank" }, v.level_rank ? levelName(RANK_LEVEL[v.level_rank]) : "–")),
      h("span", {}, "Trump ", h("strong", { id: "tl-trump", class: v.trump === "h" || v.trump === "d" ? "red" : "" },
        v.trump ? `${SUIT_SYMBOLS[v.trump]} ${SUIT_NAMES[v.trump]}` : "not yet")),
      h("span", {}, "Dealer ", h("strong", {}, v.dealer == null ? "to be bid" : this.name(v.dealer))),
      h("span", { class: "tl-points" }, "Defenders ", h("strong", { id: "tl-points" }, `${v.defenders_points}`), " pts ",
        cardRow(v.defenders_point_cards, "mini")),
      v.last_hand ? h("span", { class: "warn" }, "Last hand of the round") : null,
      h("span", { class: "muted" }, `Hand ${v.hand_number}`));
  }

  renderSeats() {
    const v = this.view;
    const turn = this.turn();
    const trick = this.showPrevious && v.previous_trick ? v.previous_trick : v.current_trick;
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
          seat === this.me ? "You" : this.name(seat),
          v.dealer === seat ? h("span", { class: "badge dealer", title: "dealer" }, "庄") : null,
          v.auto[seat] ? h("span", { class: "badge auto" }, v.auto[seat] === "vacant" ? "server plays" : "auto") : null),
        h("div", { class: "tl-count muted" }, `${v.card_counts[seat]} cards`),
        turn.seat === seat ? h("div", { class: "countdown", "data-deadline": turn.deadline }) : null,
        play ? cardRow(play.cards, "played") : h("span", { class: "cards played empty" }));
    }
  }

  renderCenter() {
    const v = this.view;
    clear(this.center);
    if (this.notice) {
      this.center.append(this.notice);
      return;
    }
    if (v.outcome) {
      const o = v.outcome;
      this.center.append(h("div", { class: "tl-panel", id: "tl-game-over" },
        h("strong", {}, o.winner == null ? "Game over: no winner" : `${this.name(o.winner)} & ${this.name(o.winner + 2)} win the game`),
        h("span", {}, `Because ${GAME_END[o.reason] ?? o.reason}. Levels ${levelName(o.levels[0])} – ${levelName(o.levels[1])}.`),
        h("button", { onclick: () => this.ctx.leave() }, "Back to the lobby")));
      return;
    }
    if (v.phase.type === "between_hands" && v.last_result) {
      this.center.append(this.resultPanel(v.last_result));
      return;
    }
    const p = v.phase.type;
    const text = {
      waiting: "Waiting for four players…",
      dealing: `Dealing… ${v.dealt} / 156`,
      bidding: "Last chance to bid",
      naming_trump: `${this.name(v.phase.dealer)} names the trump suit`,
      bottom: `${this.name(v.phase.dealer)} exchanges the bottom`,
    }[p];
    if (text) this.center.append(h("div", { class: "tl-phase", id: "tl-phase" }, text));
    if (v.bids.length) {
      const b = v.bids[v.bids.length - 1];
      this.center.append(h("div", { class: "tl-bid" }, `${this.name(b.seat)}: ${BID_KIND[b.kind]} `, cardRow(b.cards, "mini")));
    }
    if (v.bottom && v.phase.type !== "between_hands") {
      this.center.append(h("div", { class: "tl-bottom" }, "Bottom ", cardRow(v.bottom, "mini")));
    }
  }

  resultPanel(r) {
    const changed = `${this.name(r.change.team)} & ${this.name(r.change.team + 2)} go up ${r.change.steps} level${r.change.steps === 1 ? "" : "s"}`;
    return h("div", { class: "tl-panel", id: "tl-result" },
      h("strong", {}, `Hand over: defenders ${r.defenders_points} points`),
      h("span", {}, `Tricks ${r.trick_points}`, r.penalty_points ? ` · penalties ${r.penalty_points}` : "",
        ` · bottom ${r.bottom_points}` + (r.bottom_points ? ` (×${r.bottom_multiplier})` : "")),
      h("span", {}, "Bottom ", cardRow(r.bottom, "mini"), ` ×${r.bottom_multiplier}`),
      h("span", {}, changed, ` → ${levelName(r.levels[0])} : ${levelName(r.levels[1])}`),
      h("span", { class: "muted" }, `Next dealer: ${this.name(r.next_dealer)}`,
        this.view.phase.type === "between_hands"
          ? h("span", {}, " · next hand in ", h("span", { "data-deadline": this.view.phase.next_hand_at })) : null));
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
      this.flash(h("div", { class: "tl-panel", id: "tl-throw-failed" },
        h("strong", {}, `${this.name(ev.seat)}'s throw failed`),
        h("span", {}, "Tried ", cardRow(ev.attempted, "mini")),
        h("span", {}, `${this.name(ev.beaten_by)} can beat it; `, cardRow(ev.forced, "mini"), " is led instead"),
        h("span", {}, `Penalty ${ev.penalty > 0 ? "+" : ""}${ev.penalty} to the defenders`)));
    }
  }

  renderHand(keepSelection) {
    const v = this.view;
    const groups = this.sortedHand();
    const flat = groups.flatMap((g) => g.cards);
    const key = `${v.trump}|${v.level_rank}|${flat.join(",")}`;
    if (key === this.handKey && !keepSelection) return;
    if (key !== this.handKey && !keepSelection) this.selected.clear();
    this.handKey = key;
    this.flatHand = flat;
    clear(this.hand);
    if (v.hand == null) {
      this.hand.append(h("p", { class: "muted" }, "Watching: the players' hands are hidden."));
      return;
    }
    let i = 0;
    for (const g of groups) {
      const row = h("div", { class: `tl-group type-${g.type}` }, h("span", { class: "tl-type" }, TYPE_NAMES[g.type]));
      for (const card of g.cards) {
        row.append(cardEl(card, { "data-index": i }));
        row.lastChild.classList.toggle("selected", this.selected.has(i));
        i += 1;
      }
      this.hand.append(row);
    }
  }

  renderActions() {
    const v = this.view;
    const me = this.me;
    clear(this.actions);
    const p = v.phase;
    const add = (...els) => this.actions.append(...els);
    if (me == null) {
      add(h("button", { onclick: () => this.ctx.leave(), id: "btn-leave" }, "Stop watching"));
      this.previousButton(add);
      return;
    }
    const hint = v.hint;
    if ((p.type === "dealing" || p.type === "bidding") && v.hand) {
      // The bids the server says this seat may make now (第十条; the rule is in games).
      for (const cards of v.legal_bids ?? []) {
        const standing = v.bids[v.bids.length - 1];
        const kind = !standing ? "Bid" : standing.seat === me ? "Strengthen" : "Counter-bid";
        add(h("button", { class: "bid", "data-bid": cards.join(" "), onclick: () => this.act({ type: "bid", cards }) },
          `${kind} `, cardRow(cards, "mini")));
      }
    } else if (p.type === "naming_trump" && p.dealer === me) {
      add(h("span", {}, "Name the trump suit:"));
      for (const suit of SUITS) {
        add(h("button", { "data-suit": suit, onclick: () => this.act({ type: "name_trump", suit }) }, `${SUIT_SYMBOLS[suit]} ${SUIT_NAMES[suit]}`));
      }
    } else if (p.type === "bottom" && p.dealer === me) {
      const n = this.selected.size;
      add(h("span", {}, "Choose 6 cards to put back as the bottom."),
        h("button", { class: "primary", id: "btn-put-back", disabled: n !== 6,
          onclick: () => this.act({ type: "put_back", cards: this.selectedCards() }) }, `Put back (${n}/6)`));
      if (hint?.cards) add(h("button", { id: "btn-hint", onclick: () => this.selectCards(hint.cards) }, "Suggest"));
    } else if ((p.type === "leading" || p.type === "following") && p.seat === me) {
      const n = this.selected.size;
      // Between a trick's last play and the step's `turn`, the phase may still name this
      // seat while the trick has already moved to `previous_trick`.
      const need = p.type === "following" ? v.current_trick?.plays[0]?.cards.length ?? null : null;
      add(h("span", {}, p.type === "leading" ? "Your lead." : `Follow with ${need} card${need === 1 ? "" : "s"}.`),
        h("button", { class: "primary", id: "btn-play", disabled: need ? n !== need : n === 0,
          onclick: () => this.act({ type: p.type === "leading" ? "lead" : "follow", cards: this.selectedCards() }) },
          p.type === "leading" ? "Lead" : "Follow"));
      if (hint?.cards) add(h("button", { id: "btn-hint", onclick: () => this.selectCards(hint.cards) }, "Suggest"));
    }
    if (this.selected.size) add(h("button", { class: "small", onclick: () => { this.selected.clear(); this.renderHand(true); this.renderActions(); } }, "Clear"));
    this.previousButton(add);
    add(h("button", { id: "btn-leave", class: "small", onclick: () => this.ctx.leave() },
      v.phase.type === "over" ? "Back to the lobby" : "Leave (the server plays your seat)"));
  }

  previousButton(add) {
    if (!this.view.previous_trick) return;
    add(h("button", { class: "small", id: "btn-previous", "aria-pressed": String(this.showPrevious), onclick: () => {
      this.showPrevious = !this.showPrevious;
      this.renderSeats();
      this.renderActions();
    } }, this.showPrevious ? "Show the current trick" : "Previous trick"));
  }

  async act(action) {
    try {
      await this.ctx.conn.request({ type: "tuolaji", action });
      this.selected.clear();
    } catch (err) {
      if (err.code === "declare_structure" && err.splits) {
        const declared = await chooseSplit(this.root, err.splits, (cards) => cardRow(cards));
        if (declared) await this.act({ ...action, declared });
      } else this.ctx.toast(err.message);
    }
  }

  /** The countdowns, four times a second. */
  tick() {
    const now = this.ctx.conn.serverNow();
    for (const el of this.root.querySelectorAll("[data-deadline]")) {
      const left = Math.max(0, Math.ceil((Number(el.dataset.deadline) - now) / 1000));
      el.textContent = `${left} s`;
      el.classList.toggle("low", left <= 5);
    }
  }
}

/** A level rank letter to its level number. */
const RANK_LEVEL = { 2: 2, 3: 3, 4: 4, 5: 5, 6: 6, 7: 7, 8: 8, 9: 9, T: 10, J: 11, Q: 12, K: 13, A: 14 };

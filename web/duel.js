// What the two-seat board tables (xiangqi.js, draughts.js) share and that holds no rule and
// no text: the seat's side and the board's orientation, dragging a piece, the two clocks
// running smoothly from the server's `clocks`, a button that asks twice, the game's simple
// actions, and small SVG helpers. Each table keeps its own board, input and words.

import { h, clear, botBadge } from "./dom.js";
import { errorText } from "./errors.js";
import { displayName } from "./room.js";
import { lowTimeCue } from "./cue.js";

export const SVG = "http://www.w3.org/2000/svg";

/** Below this a clock shows as low, and this page's own running clock gives a cue. */
const LOW_TIME_MS = 20000;

/** How a clock reads: h:mm:ss, m:ss, or seconds and tenths in the last 20 s. */
export function formatClock(ms) {
  const t = Math.max(0, ms);
  if (t < 20000) return (Math.floor(t / 100) / 10).toFixed(1);
  const s = Math.floor(t / 1000);
  const hh = Math.floor(s / 3600);
  const mm = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, "0");
  return hh > 0 ? `${hh}:${String(mm).padStart(2, "0")}:${ss}` : `${mm}:${ss}`;
}

export class DuelTable {
  /**
   * @param root the element to draw in
   * @param ctx { conn, room, toast(text), leave() }
   * @param game the wire's game kind, for actions (`{type: game, action}`)
   * @param sides the sides of seat 0 and seat 1 (`["red", "black"]`); the clocks' fields
   *   are `<side>_ms`
   */
  constructor(root, ctx, game, sides) {
    this.root = root;
    this.ctx = ctx;
    this.game = game;
    this.sides = sides;
    this.drag = null;
    this.pending = false;
    this.flipForSpectator = false;
    this.confirming = null;
  }

  /** Starts the clocks' animation (after the subclass has built its table). */
  startTicking() {
    this.frame = requestAnimationFrame(() => this.tick());
  }

  destroy() {
    cancelAnimationFrame(this.frame);
    clearTimeout(this.confirmTimer);
    clear(this.root);
  }

  get view() {
    return this.ctx.room.view;
  }

  /** Whether this page's side is to move (for the turn cue). */
  myTurn() {
    const v = this.view;
    return v?.status === "playing" && this.mySide != null && this.mySide === v.side_to_move;
  }

  /** The side this page plays, or null when watching. */
  get mySide() {
    const seat = this.ctx.room.you;
    return seat === 0 || seat === 1 ? this.sides[seat] : null;
  }

  /** The side drawn at the bottom: our own, or for spectators seat 0's unless flipped. */
  get bottomSide() {
    if (this.mySide) return this.mySide;
    return this.sides[this.flipForSpectator ? 1 : 0];
  }

  /**
   * Builds the table: the board (an SVG of `size` = [width, height] with the layers `grid`,
   * `marks`, `pieces`, `targets`, `hits`, classes `<prefix>-board`, `<prefix>-<layer>`),
   * a clock above and below, and the side panel: the room label, the status line, `extra`
   * nodes, the buttons, `movesTitle` and the move list. Then draws.
   */
  buildFrame(prefix, [width, height], { status, wrap = "", layout = "", extra = [], movesTitle, moves = "" }) {
    clear(this.root);
    this.svg = document.createElementNS(SVG, "svg");
    this.svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
    this.svg.setAttribute("class", `${prefix}-board`);
    this.svg.setAttribute("role", "img");
    this.layers = {};
    for (const name of ["grid", "marks", "pieces", "targets", "hits"]) {
      this.layers[name] = svgEl("g", { class: `${prefix}-${name}` });
      this.svg.append(this.layers[name]);
    }
    this.svg.addEventListener("pointerdown", (e) => this.pointerDown(e));
    this.svg.addEventListener("pointermove", (e) => this.pointerMove(e));
    this.svg.addEventListener("pointerup", (e) => this.pointerUp(e));
    this.svg.addEventListener("pointercancel", () => this.cancelDrag());

    this.clockTop = clockBox();
    this.clockBottom = clockBox();
    this.status = h("div", { class: "status", id: status, "aria-live": "polite" });
    this.banner = h("div", { class: "banner hidden", id: "result" });
    this.moveList = h("ol", { class: `moves ${moves}`.trim(), id: "moves", "aria-labelledby": "moves-title" });
    this.actions = h("div", { class: "actions" });
    this.roomLabel = h("div", { class: "room-label" });

    this.root.append(
      h("div", { class: `xq-layout ${layout}`.trim() },
        h("div", { class: "xq-main" },
          this.clockTop.el,
          h("div", { class: `board-wrap ${wrap}`.trim() }, this.svg, this.banner),
          this.clockBottom.el),
        h("aside", { class: "xq-side panel" },
          this.roomLabel,
          this.status,
          ...extra,
          this.actions,
          h("h3", { id: "moves-title" }, movesTitle),
          this.moveList)));
    this.drawnBottom = null;
    this.render();
  }

  /**
   * The two clocks' names, marks and labels: the bottom one is this page's side (seat 0's
   * for spectators). `words`: { emptySeat, connected, disconnected, label(side) }.
   */
  renderClocks(words) {
    const v = this.view;
    const room = this.ctx.room;
    const bottom = this.bottomSide;
    const top = bottom === this.sides[0] ? this.sides[1] : this.sides[0];
    for (const [box, side] of [[this.clockBottom, bottom], [this.clockTop, top]]) {
      const seat = room.seats[side === this.sides[0] ? 0 : 1];
      box.side = side;
      box.el.className = `clock ${side}${v.status === "playing" && v.side_to_move === side ? " to-move" : ""}`;
      box.el.dataset.side = side;
      box.name.textContent = seat ? displayName(seat.name) : words.emptySeat;
      box.dot.className = `dot ${seat?.connected ? "on" : "off"}`;
      box.dot.title = seat?.connected ? words.connected : words.disconnected;
      box.dot.hidden = Boolean(seat?.bot);
      box.bot.hidden = !seat?.bot;
      box.label.textContent = words.label(side);
      if (words.clockOf) box.time.setAttribute("aria-label", words.clockOf(side));
    }
  }

  /**
   * The result over the board once the game is over. `words`: { won, lost, over, draw,
   * back, describe(result) }.
   */
  renderBanner(words) {
    const v = this.view;
    const me = this.mySide;
    if (v.status === "over" && v.result) {
      this.banner.className = "banner";
      const won = me && v.result.winner === me;
      const lost = me && v.result.winner && v.result.winner !== me;
      clear(this.banner);
      this.banner.append(
        h("strong", {}, won ? words.won : lost ? words.lost : v.result.winner ? words.over : words.draw),
        h("span", {}, words.describe(v.result)),
        h("button", { onclick: () => this.ctx.leave(), id: "btn-back" }, words.back));
    } else {
      this.banner.className = "banner hidden";
    }
  }

  /**
   * The buttons: draw offers, resign and leave while playing; leave after; flip and stop
   * watching for spectators. `words`: { offersDraw(side), acceptDraw, decline, drawOffered,
   * offerDraw, resign, reallyResign, leave, leaveAndLose, back, leaveTable, flip,
   * stopWatching }.
   */
  renderActions(words) {
    const v = this.view;
    const me = this.mySide;
    clear(this.actions);
    if (me && v.status === "playing") {
      const them = me === this.sides[0] ? this.sides[1] : this.sides[0];
      if (v.draw_offer === them) {
        this.actions.append(
          h("div", { class: "offer", role: "status" }, words.offersDraw(them)),
          h("button", { id: "btn-accept-draw", onclick: () => this.act("accept_draw") }, words.acceptDraw),
          h("button", { id: "btn-decline-draw", onclick: () => this.act("decline_draw") }, words.decline));
      } else if (v.draw_offer === me) {
        this.actions.append(h("button", { disabled: true }, words.drawOffered));
      } else {
        this.actions.append(h("button", { id: "btn-offer-draw", onclick: () => this.act("offer_draw") }, words.offerDraw));
      }
      this.actions.append(
        this.confirmButton("resign", words.resign, words.reallyResign, () => this.act("resign")),
        this.confirmButton("leave", words.leave, words.leaveAndLose, () => this.ctx.leave()));
    } else if (me) {
      this.actions.append(h("button", { id: "btn-leave", onclick: () => this.ctx.leave() },
        v.status === "over" ? words.back : words.leaveTable));
    } else {
      this.actions.append(
        h("button", { id: "btn-flip", onclick: () => { this.flipForSpectator = !this.flipForSpectator; this.render(); } }, words.flip),
        h("button", { id: "btn-leave", onclick: () => this.ctx.leave() }, words.stopWatching));
    }
  }

  /** The record, a row per full move (seat 0's side, then seat 1's); `text(move)` shows one. */
  renderMoves(text) {
    const v = this.view;
    clear(this.moveList);
    const moves = v.moves;
    const secondFirst = (moves.length % 2 === 0) === (v.side_to_move === this.sides[1]);
    const list = secondFirst ? [null, ...moves] : moves;
    for (let i = 0; i < list.length; i += 2) {
      this.moveList.append(h("li", {},
        h("span", { class: `mv ${this.sides[0]}` }, list[i] ? text(list[i]) : "…"),
        h("span", { class: `mv ${this.sides[1]}` }, list[i + 1] ? text(list[i + 1]) : "")));
    }
    this.moveList.scrollTop = this.moveList.scrollHeight;
  }

  /** While dragging: the piece follows the pointer (`this.pieceEls`, `this.layers.pieces`). */
  pointerMove(e) {
    const d = this.drag;
    if (!d || d.id !== e.pointerId) return;
    if (!d.moved && Math.hypot(e.clientX - d.x, e.clientY - d.y) < 6) return;
    d.moved = true;
    const ctm = this.svg.getScreenCTM();
    const el = this.pieceEls.get(d.from);
    if (!ctm || !el) return;
    const p = new DOMPoint(e.clientX, e.clientY).matrixTransform(ctm.inverse());
    el.setAttribute("transform", `translate(${p.x} ${p.y}) scale(1.08)`);
    el.classList.add("dragging");
    this.layers.pieces.append(el); // on top of the others
  }

  cancelDrag() {
    this.drag = null;
    this.drawPieces();
  }

  /** A simple action (`resign`, `offer_draw`, …); a refusal is shown as a toast. */
  async act(type) {
    try {
      await this.ctx.conn.request({ type: this.game, action: { type } });
    } catch (err) {
      this.ctx.toast(errorText(err));
    }
  }

  /** A button that asks once more before doing something that cannot be undone. */
  confirmButton(key, label, confirmLabel, run) {
    const armed = this.confirming === key;
    return h("button", {
      class: armed ? "danger" : "",
      id: `btn-${key}`,
      onclick: () => {
        if (armed) {
          this.confirming = null;
          run();
        } else {
          this.confirming = key;
          clearTimeout(this.confirmTimer);
          this.confirmTimer = setTimeout(() => { this.confirming = null; this.renderSide(); }, 4000);
        }
        this.renderSide();
      },
    }, armed ? confirmLabel : label);
  }

  /**
   * Every animation frame: the clocks, and the first-move countdown after `this.statusBase`
   * in the words of `this.firstMoveNote(seconds)`.
   */
  tick() {
    this.frame = requestAnimationFrame(() => this.tick());
    const v = this.view;
    if (!v) return;
    const nowServer = this.ctx.conn.serverNow();
    const c = v.clocks;
    for (const box of [this.clockTop, this.clockBottom]) {
      if (!box.side) continue;
      const base = c[`${box.side}_ms`];
      const ms = c.running === box.side ? base - (nowServer - c.server_time) : base;
      const text = formatClock(ms);
      if (box.time.textContent !== text) box.time.textContent = text;
      const low = ms < LOW_TIME_MS;
      box.el.classList.toggle("low", low);
      if (box.side === this.mySide && c.running === box.side) {
        // Once each time the page's own running clock falls below the mark (an increment
        // may lift it above again).
        if (low && !this.lowCued) lowTimeCue();
        this.lowCued = low;
      }
    }
    if (v.status === "playing" && v.first_move_deadline != null) {
      const left = Math.max(0, Math.ceil((v.first_move_deadline - nowServer) / 1000));
      const text = `${this.statusBase} ${this.firstMoveNote(left)}`;
      if (this.status.textContent !== text) this.status.textContent = text;
    }
  }
}

/** A clock: the player's name, connection dot or bot mark, side label and time. */
export function clockBox() {
  const name = h("span", { class: "name" });
  const dot = h("span", { class: "dot" });
  const bot = botBadge();
  bot.hidden = true;
  const label = h("span", { class: "side-label" });
  const time = h("span", { class: "time" }, "–:––");
  const el = h("div", { class: "clock" }, h("div", { class: "who" }, dot, bot, name, label), time);
  return { el, name, dot, bot, label, time, side: null };
}

export function svgEl(tag, attrs) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  return el;
}

export function svgText(text, x, y, cls, anchor = "middle") {
  const el = svgEl("text", { x, y, class: cls, "text-anchor": anchor });
  el.textContent = text;
  return el;
}

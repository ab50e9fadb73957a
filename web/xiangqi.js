// The xiangqi table: an SVG board (click-click or drag, legal targets from the server's
// `legal_moves`, the last move marked, flipped for Black), two clocks running smoothly from
// the server's `clocks`, the record in Chinese notation, resign and draw buttons and the
// result. The server holds every rule: this file only draws what the view says.

import { h, clear, botBadge } from "./dom.js";
import { t } from "./i18n.js";
import { errorText } from "./errors.js";

const FILES = "abcdefghi";
const CELL = 100;
const MARGIN = 90;
const WIDTH = 8 * CELL + 2 * MARGIN;
const HEIGHT = 9 * CELL + 2 * MARGIN;
const SVG = "http://www.w3.org/2000/svg";

/**
 * The piece characters for FEN letters (upper case Red, lower case Black) come from the
 * catalogue (`piece.K`, `piece.r`…): each side its own characters (帅/将, 仕/士, 相/象,
 * 兵/卒, and 俥 傌 炮 against 車 馬 砲), so the colour is never the only sign.
 */
const glyph = (letter) => t(`piece.${letter}`);
/** A piece's name for screen readers: "红车", "Red rook 车". */
const pieceName = (letter) => t("xq.piece_name", {
  side: t(letter === letter.toUpperCase() ? "side.red" : "side.black"),
  piece: t(`piece_name.${letter.toLowerCase()}`),
});
const numerals = (side) => t(side === "red" ? "xq.red_numerals" : "xq.black_numerals").split(",");

const sideOfSeat = (seat) => (seat === 0 ? "red" : seat === 1 ? "black" : null);
const other = (side) => (side === "red" ? "black" : "red");
const sideName = (side) => t(`side.${side}`);

/**
 * PROTOCOL.md §9.5: one event's change to the view, a port of the Rust fold
 * `qipai_games::xiangqi::view::fold` (games/src/xiangqi/view.rs), which a property test
 * proves gives exactly the server's snapshot after every step.
 */
export function applyEvent(view, ev) {
  switch (ev.type) {
    case "started":
      view.status = "playing";
      view.fen = ev.fen;
      view.side_to_move = ev.side_to_move;
      view.in_check = ev.in_check;
      view.legal_moves = ev.legal_moves;
      view.clocks = ev.clocks;
      view.first_move_deadline = ev.first_move_deadline;
      break;
    case "moved":
      view.moves.push({ iccs: ev.iccs, chinese: ev.chinese });
      view.last_move = ev.iccs;
      view.fen = ev.fen;
      view.in_check = ev.in_check;
      view.legal_moves = ev.legal_moves;
      view.clocks = ev.clocks;
      view.first_move_deadline = ev.first_move_deadline;
      view.side_to_move = other(ev.side);
      view.draw_offer = ev.draw_offer ?? null;
      break;
    case "draw_offered":
      view.draw_offer = ev.by;
      break;
    case "draw_declined":
      view.draw_offer = null;
      break;
    case "over":
      view.status = "over";
      view.result = ev.result;
      view.clocks = ev.clocks;
      view.legal_moves = [];
      view.draw_offer = null;
      view.first_move_deadline = null;
      break;
    default:
      break;
  }
}

/** The pieces of a FEN's board field: a map from ICCS square ("e0") to piece letter. */
export function parseBoard(fen) {
  const pieces = new Map();
  const rows = fen.split(" ")[0].split("/");
  rows.forEach((row, i) => {
    const rank = 9 - i;
    let file = 0;
    for (const ch of row) {
      if (ch >= "1" && ch <= "9") file += Number(ch);
      else {
        pieces.set(`${FILES[file]}${rank}`, ch);
        file += 1;
      }
    }
  });
  return pieces;
}

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

/** A sentence for a result, with the rules' term and article (将死, 困毙, 长将…). */
export function describeResult(result) {
  const why = t(`xq.reason.${result.reason}`);
  if (result.reason === "aborted") return t("xq.result.aborted");
  if (!result.winner) return t("xq.result.draw", { why });
  return t("xq.result.win", { side: sideName(result.winner), why });
}

export class XiangqiTable {
  /**
   * @param root the element to draw in
   * @param ctx { conn, room, toast(text), leave() }
   */
  constructor(root, ctx) {
    this.root = root;
    this.ctx = ctx;
    this.selected = null;
    this.drag = null;
    this.pending = false;
    this.flipForSpectator = false;
    this.confirming = null;
    this.build();
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

  /** The side this page plays, or null when watching. */
  get mySide() {
    return sideOfSeat(this.ctx.room.you);
  }

  /** The side drawn at the bottom. */
  get bottomSide() {
    if (this.mySide) return this.mySide;
    return this.flipForSpectator ? "black" : "red";
  }

  build() {
    clear(this.root);
    this.svg = document.createElementNS(SVG, "svg");
    this.svg.setAttribute("viewBox", `0 0 ${WIDTH} ${HEIGHT}`);
    this.svg.setAttribute("class", "xq-board");
    // The board takes the keyboard (issue 18): Tab to it, arrows move a cursor, Space or
    // Enter picks a piece and then its target, the confirm button plays the move.
    this.svg.setAttribute("role", "application");
    this.svg.setAttribute("tabindex", "0");
    this.svg.setAttribute("aria-label", t("xq.board_label"));
    this.svg.setAttribute("aria-describedby", "xq-board-help");
    this.svg.addEventListener("keydown", (e) => this.keyDown(e));
    this.svg.addEventListener("focus", () => this.placeCursor());
    this.cursor = null;
    this.proposed = null;
    this.layers = {};
    for (const name of ["grid", "marks", "pieces", "targets", "hits"]) {
      this.layers[name] = svgEl("g", { class: `xq-${name}` });
      this.svg.append(this.layers[name]);
    }
    this.svg.addEventListener("pointerdown", (e) => this.pointerDown(e));
    this.svg.addEventListener("pointermove", (e) => this.pointerMove(e));
    this.svg.addEventListener("pointerup", (e) => this.pointerUp(e));
    this.svg.addEventListener("pointercancel", () => this.cancelDrag());
    this.svg.addEventListener("blur", () => this.drawMarks());

    this.clockTop = clockBox();
    this.clockBottom = clockBox();
    this.status = h("div", { class: "status", id: "xq-status", "aria-live": "polite" });
    this.banner = h("div", { class: "banner hidden", id: "result" });
    this.moveList = h("ol", { class: "moves", id: "moves", "aria-labelledby": "moves-title" });
    this.actions = h("div", { class: "actions" });
    this.roomLabel = h("div", { class: "room-label" });
    this.confirmBox = h("div", { class: "confirm-move", id: "xq-confirm" });
    this.announcer = h("div", { class: "visually-hidden", id: "xq-cursor", "aria-live": "polite" });

    this.root.append(
      h("div", { class: "xq-layout" },
        h("div", { class: "xq-main" },
          this.clockTop.el,
          h("div", { class: "board-wrap" }, this.svg, this.banner),
          this.clockBottom.el,
          h("p", { class: "visually-hidden", id: "xq-board-help" }, t("xq.board_help")),
          this.announcer),
        h("aside", { class: "xq-side panel" },
          this.roomLabel,
          this.status,
          this.confirmBox,
          this.actions,
          h("h3", { id: "moves-title" }, t("xq.moves")),
          this.moveList)));
    this.drawnBottom = null;
    this.render();
  }

  /** Redraws from the view (called on every snapshot and event). */
  render() {
    const view = this.view;
    if (!view) return;
    if (this.drawnBottom !== this.bottomSide) {
      this.drawGrid();
      this.drawnBottom = this.bottomSide;
    }
    this.pieces = parseBoard(view.fen);
    if (this.selected && !this.movesFrom(this.selected).length) this.selected = null;
    if (this.proposed && !this.movesFrom(this.proposed.slice(0, 2)).includes(this.proposed)) this.proposed = null;
    this.drawMarks();
    this.renderConfirm();
    this.drawPieces();
    this.drawTargets();
    this.renderSide();
  }

  // --- geometry -------------------------------------------------------------

  /** Screen position (SVG units) of a square. */
  point(sq) {
    const file = FILES.indexOf(sq[0]);
    const rank = Number(sq[1]);
    const flipped = this.bottomSide === "black";
    const col = flipped ? 8 - file : file;
    const row = flipped ? rank : 9 - rank;
    return { x: MARGIN + col * CELL, y: MARGIN + row * CELL };
  }

  /** The square under a pointer event, or null. */
  squareAt(e) {
    const ctm = this.svg.getScreenCTM();
    if (!ctm) return null;
    const p = new DOMPoint(e.clientX, e.clientY).matrixTransform(ctm.inverse());
    const col = Math.round((p.x - MARGIN) / CELL);
    const row = Math.round((p.y - MARGIN) / CELL);
    if (col < 0 || col > 8 || row < 0 || row > 9) return null;
    const flipped = this.bottomSide === "black";
    const file = flipped ? 8 - col : col;
    const rank = flipped ? row : 9 - row;
    return `${FILES[file]}${rank}`;
  }

  // --- drawing --------------------------------------------------------------

  drawGrid() {
    const g = this.layers.grid;
    clear(g);
    clear(this.layers.hits);
    g.append(svgEl("rect", { x: 0, y: 0, width: WIDTH, height: HEIGHT, class: "xq-wood", rx: 18 }));
    const x0 = MARGIN, x8 = MARGIN + 8 * CELL, y0 = MARGIN, y9 = MARGIN + 9 * CELL;
    const line = (x1, y1, x2, y2) => g.append(svgEl("line", { x1, y1, x2, y2, class: "xq-line" }));
    for (let r = 0; r < 10; r++) line(x0, y0 + r * CELL, x8, y0 + r * CELL);
    for (let c = 0; c < 9; c++) {
      const x = x0 + c * CELL;
      if (c === 0 || c === 8) line(x, y0, x, y9);
      else {
        line(x, y0, x, y0 + 4 * CELL);
        line(x, y0 + 5 * CELL, x, y9);
      }
    }
    for (const top of [0, 7]) {
      const ya = y0 + top * CELL, yb = ya + 2 * CELL;
      line(x0 + 3 * CELL, ya, x0 + 5 * CELL, yb);
      line(x0 + 5 * CELL, ya, x0 + 3 * CELL, yb);
    }
    g.append(svgEl("rect", { x: x0 - 8, y: y0 - 8, width: 8 * CELL + 16, height: 9 * CELL + 16, class: "xq-frame" }));
    const riverY = y0 + 4.5 * CELL + 14;
    g.append(svgText(t("xq.river_left"), x0 + 2 * CELL, riverY, "xq-river"));
    g.append(svgText(t("xq.river_right"), x0 + 6 * CELL, riverY, "xq-river"));
    // File numbers, each side counting from its own right.
    const bottom = this.bottomSide;
    const top = other(bottom);
    for (let c = 0; c < 9; c++) {
      const x = x0 + c * CELL;
      g.append(svgText(numerals(bottom)[8 - c], x, y9 + 76, `xq-file ${bottom}`));
      g.append(svgText(numerals(top)[c], x, y0 - 56, `xq-file ${top}`));
    }
    for (let file = 0; file < 9; file++) {
      for (let rank = 0; rank < 10; rank++) {
        const sq = `${FILES[file]}${rank}`;
        const { x, y } = this.point(sq);
        this.layers.hits.append(svgEl("rect", {
          x: x - CELL / 2, y: y - CELL / 2, width: CELL, height: CELL,
          class: "xq-hit", "data-sq": sq,
        }));
      }
    }
  }

  drawMarks() {
    const g = this.layers.marks;
    clear(g);
    const last = this.view.last_move;
    if (last) {
      for (const sq of [last.slice(0, 2), last.slice(2, 4)]) {
        const { x, y } = this.point(sq);
        g.append(svgEl("rect", { x: x - 46, y: y - 46, width: 92, height: 92, class: "xq-last", rx: 10 }));
      }
    }
    if (this.selected) {
      const { x, y } = this.point(this.selected);
      g.append(svgEl("circle", { cx: x, cy: y, r: 50, class: "xq-selected" }));
    }
    if (this.cursor && this.svg.matches(":focus")) {
      const { x, y } = this.point(this.cursor);
      g.append(svgEl("rect", { x: x - 50, y: y - 50, width: 100, height: 100, class: "xq-cursor", rx: 8 }));
    }
  }

  // --- keyboard -------------------------------------------------------------

  /** On focus: the cursor where it was, else on the first piece this side can move. */
  placeCursor() {
    if (!this.cursor) {
      const first = this.canMove() ? this.view.legal_moves[0]?.slice(0, 2) : null;
      this.cursor = first ?? (this.bottomSide === "red" ? "e0" : "e9");
    }
    this.drawMarks();
    this.announce();
  }

  keyDown(e) {
    if (!this.cursor) this.placeCursor();
    const flipped = this.bottomSide === "black";
    // Screen directions: up is toward the top of the board as drawn.
    const steps = { ArrowUp: [0, 1], ArrowDown: [0, -1], ArrowLeft: [-1, 0], ArrowRight: [1, 0] };
    if (e.key in steps) {
      e.preventDefault();
      const [df, dr] = steps[e.key].map((d) => (flipped ? -d : d));
      const file = Math.max(0, Math.min(8, FILES.indexOf(this.cursor[0]) + df));
      const rank = Math.max(0, Math.min(9, Number(this.cursor[1]) + dr));
      this.cursor = `${FILES[file]}${rank}`;
      this.drawMarks();
      this.announce();
    } else if (e.key === " " || e.key === "Enter") {
      e.preventDefault();
      this.choose(this.cursor);
    } else if (e.key === "Escape") {
      this.selected = null;
      this.proposed = null;
      this.render();
    }
  }

  /** Space/Enter on `sq`: pick the piece there, or propose the move to it for confirming. */
  choose(sq) {
    if (this.selected && this.selected !== sq && this.movesFrom(this.selected).includes(this.selected + sq)) {
      this.proposed = this.selected + sq;
      this.renderConfirm();
      this.confirmBox.querySelector("#btn-confirm-move")?.focus();
      return;
    }
    this.selected = this.movesFrom(sq).length ? sq : null;
    this.proposed = null;
    this.drawMarks();
    this.drawTargets();
    this.renderConfirm();
    this.announce();
  }

  /** Says what is under the cursor (a visually hidden live region). */
  announce() {
    const letter = this.pieces?.get(this.cursor);
    const what = letter ? pieceName(letter) : t("xq.empty_point");
    const target = this.selected && this.movesFrom(this.selected).includes(this.selected + this.cursor);
    const picked = this.selected === this.cursor;
    this.announcer.textContent = t("xq.cursor", { square: this.cursor, what }) +
      (picked ? ` ${t("xq.cursor_selected")}` : target ? ` ${t("xq.cursor_target")}` : "");
  }

  /** The confirm button of a move picked with the keyboard. */
  renderConfirm() {
    clear(this.confirmBox);
    if (!this.proposed) return;
    const from = this.proposed.slice(0, 2);
    const to = this.proposed.slice(2, 4);
    const letter = this.pieces?.get(from);
    const move = t("xq.move_text", { piece: letter ? pieceName(letter) : "", from, to });
    this.confirmBox.append(
      h("button", { class: "primary", id: "btn-confirm-move", onclick: () => {
        const mv = this.proposed;
        this.proposed = null;
        this.renderConfirm();
        this.play(mv);
        this.svg.focus();
      } }, t("xq.confirm_move", { move })),
      h("button", { id: "btn-cancel-move", onclick: () => {
        this.proposed = null;
        this.selected = null;
        this.render();
        this.svg.focus();
      } }, t("tl.cancel")));
  }

  drawPieces() {
    const g = this.layers.pieces;
    clear(g);
    this.pieceEls = new Map();
    const checkedKing = this.view.in_check ? (this.view.side_to_move === "red" ? "K" : "k") : null;
    for (const [sq, letter] of this.pieces) {
      const { x, y } = this.point(sq);
      const red = letter === letter.toUpperCase();
      const piece = svgEl("g", {
        class: `xq-piece ${red ? "red" : "black"}${letter === checkedKing ? " in-check" : ""}`,
        transform: `translate(${x} ${y})`,
        "data-piece": sq,
      });
      piece.append(svgEl("circle", { r: 44, class: "xq-disc" }));
      piece.append(svgEl("circle", { r: 37, class: "xq-ring" }));
      piece.append(svgText(glyph(letter), 0, 15, "xq-glyph"));
      g.append(piece);
      this.pieceEls.set(sq, piece);
    }
  }

  drawTargets() {
    const g = this.layers.targets;
    clear(g);
    if (!this.selected) return;
    for (const mv of this.movesFrom(this.selected)) {
      const to = mv.slice(2, 4);
      const { x, y } = this.point(to);
      const capture = this.pieces.has(to);
      g.append(svgEl("circle", capture
        ? { cx: x, cy: y, r: 47, class: "xq-target capture", "data-target": to }
        : { cx: x, cy: y, r: 14, class: "xq-target", "data-target": to }));
    }
  }

  // --- input ----------------------------------------------------------------

  canMove() {
    const v = this.view;
    return v.status === "playing" && this.mySide === v.side_to_move && !this.pending;
  }

  movesFrom(sq) {
    if (!this.canMove()) return [];
    return this.view.legal_moves.filter((m) => m.startsWith(sq));
  }

  pointerDown(e) {
    const sq = this.squareAt(e);
    if (!sq || e.button > 0) return;
    this.cursor = sq;
    this.proposed = null;
    if (this.selected && this.selected !== sq && this.movesFrom(this.selected).some((m) => m.endsWith(sq))) {
      this.play(this.selected + sq);
      return;
    }
    if (this.movesFrom(sq).length) {
      this.selected = sq;
      this.drag = { from: sq, x: e.clientX, y: e.clientY, moved: false, id: e.pointerId };
      this.svg.setPointerCapture?.(e.pointerId);
    } else {
      this.selected = null;
    }
    this.drawMarks();
    this.drawTargets();
  }

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

  pointerUp(e) {
    const d = this.drag;
    if (!d || d.id !== e.pointerId) return;
    this.drag = null;
    if (!d.moved) return;
    const to = this.squareAt(e);
    if (to && to !== d.from && this.movesFrom(d.from).some((m) => m.endsWith(to))) {
      this.play(d.from + to);
    } else {
      this.drawPieces();
    }
  }

  cancelDrag() {
    this.drag = null;
    this.drawPieces();
  }

  async play(iccs) {
    this.selected = null;
    this.pending = true;
    // Show the move at once; the server's `moved` event redraws the truth.
    const piece = this.pieces.get(iccs.slice(0, 2));
    this.pieces.delete(iccs.slice(0, 2));
    this.pieces.set(iccs.slice(2, 4), piece);
    this.drawPieces();
    this.drawTargets();
    this.drawMarks();
    try {
      await this.ctx.conn.request({ type: "xiangqi", action: { type: "move", iccs } });
      // Accepted: the `moved` event that follows redraws the board.
      this.pending = false;
    } catch (err) {
      this.pending = false;
      this.ctx.toast(errorText(err));
      this.render();
    }
  }

  async act(type) {
    try {
      await this.ctx.conn.request({ type: "xiangqi", action: { type } });
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

  // --- panel ----------------------------------------------------------------

  renderSide() {
    const v = this.view;
    const room = this.ctx.room;
    const me = this.mySide;
    this.roomLabel.textContent = t("xq.room_label", { room: String(room.roomId), tc: v.time_control }) +
      (me ? t("xq.you_play", { side: sideName(me) }) : t("xq.watching"));

    // Clocks: the bottom one is this page's side (or Red for spectators).
    const bottom = this.bottomSide;
    for (const [box, side] of [[this.clockBottom, bottom], [this.clockTop, other(bottom)]]) {
      const seat = room.seats[side === "red" ? 0 : 1];
      box.side = side;
      box.el.className = `clock ${side}${v.status === "playing" && v.side_to_move === side ? " to-move" : ""}`;
      box.el.dataset.side = side;
      box.name.textContent = seat ? seat.name : t("xq.empty_seat");
      box.dot.className = `dot ${seat?.connected ? "on" : "off"}`;
      box.dot.title = seat?.connected ? t("seat.connected") : t("seat.disconnected");
      box.dot.hidden = Boolean(seat?.bot);
      box.bot.hidden = !seat?.bot;
      box.label.textContent = t(`xq.side_label.${side}`);
      box.time.setAttribute("aria-label", t("xq.clock_of", { side: sideName(side) }));
    }

    // Status line.
    let status;
    if (v.status === "waiting") status = t("xq.status.waiting");
    else if (v.status === "over") status = t("xq.status.over");
    else if (me === v.side_to_move) status = v.in_check ? t("xq.status.your_move_check") : t("xq.status.your_move");
    else status = t(v.in_check ? "xq.status.to_move_check" : "xq.status.to_move", { side: sideName(v.side_to_move) });
    this.status.textContent = status;
    this.statusBase = status;

    // Result banner.
    if (v.status === "over" && v.result) {
      this.banner.className = "banner";
      const won = me && v.result.winner === me;
      const lost = me && v.result.winner && v.result.winner !== me;
      clear(this.banner);
      this.banner.append(
        h("strong", {}, t(won ? "xq.banner.won" : lost ? "xq.banner.lost" : v.result.winner ? "xq.banner.over" : "xq.banner.draw")),
        h("span", {}, describeResult(v.result)),
        h("button", { onclick: () => this.ctx.leave(), id: "btn-back" }, t("table.back_to_lobby")));
    } else {
      this.banner.className = "banner hidden";
    }

    // Buttons.
    clear(this.actions);
    if (me && v.status === "playing") {
      if (v.draw_offer === other(me)) {
        this.actions.append(
          h("div", { class: "offer", role: "status" }, t("xq.draw_offered_by", { side: sideName(other(me)) })),
          h("button", { id: "btn-accept-draw", onclick: () => this.act("accept_draw") }, t("xq.accept_draw")),
          h("button", { id: "btn-decline-draw", onclick: () => this.act("decline_draw") }, t("xq.decline_draw")));
      } else if (v.draw_offer === me) {
        this.actions.append(h("button", { disabled: true }, t("xq.draw_offered")));
      } else {
        this.actions.append(h("button", { id: "btn-offer-draw", onclick: () => this.act("offer_draw") }, t("xq.offer_draw")));
      }
      this.actions.append(
        this.confirmButton("resign", t("xq.resign"), t("xq.resign_confirm"), () => this.act("resign")),
        this.confirmButton("leave", t("table.leave"), t("xq.leave_confirm"), () => this.ctx.leave()));
    } else if (me) {
      this.actions.append(h("button", { id: "btn-leave", onclick: () => this.ctx.leave() },
        v.status === "over" ? t("table.back_to_lobby") : t("xq.leave_table")));
    } else {
      this.actions.append(
        h("button", { id: "btn-flip", onclick: () => { this.flipForSpectator = !this.flipForSpectator; this.render(); } }, t("xq.flip")),
        h("button", { id: "btn-leave", onclick: () => this.ctx.leave() }, t("table.stop_watching")));
    }

    // The record, a row per full move.
    clear(this.moveList);
    const moves = v.moves;
    const blackFirst = (moves.length % 2 === 0) === (v.side_to_move === "black");
    const list = blackFirst ? [null, ...moves] : moves;
    for (let i = 0; i < list.length; i += 2) {
      this.moveList.append(h("li", {},
        h("span", { class: "mv red" }, list[i]?.chinese ?? "…"),
        h("span", { class: "mv black" }, list[i + 1]?.chinese ?? "")));
    }
    this.moveList.scrollTop = this.moveList.scrollHeight;
  }

  /** Every animation frame: the clocks and the first-move countdown. */
  tick() {
    this.frame = requestAnimationFrame(() => this.tick());
    const v = this.view;
    if (!v) return;
    const nowServer = this.ctx.conn.serverNow();
    const c = v.clocks;
    for (const box of [this.clockTop, this.clockBottom]) {
      if (!box.side) continue;
      const base = box.side === "red" ? c.red_ms : c.black_ms;
      const ms = c.running === box.side ? base - (nowServer - c.server_time) : base;
      const text = formatClock(ms);
      if (box.time.textContent !== text) box.time.textContent = text;
      box.el.classList.toggle("low", ms < 20000);
    }
    if (v.status === "playing" && v.first_move_deadline != null) {
      const left = Math.max(0, Math.ceil((v.first_move_deadline - nowServer) / 1000));
      const text = `${this.statusBase} ${t("xq.first_move_within", { n: left })}`;
      if (this.status.textContent !== text) this.status.textContent = text;
    }
  }
}

function clockBox() {
  const name = h("span", { class: "name" });
  const dot = h("span", { class: "dot" });
  const bot = botBadge();
  bot.hidden = true;
  const label = h("span", { class: "side-label" });
  const time = h("span", { class: "time" }, "–:––");
  const el = h("div", { class: "clock" }, h("div", { class: "who" }, dot, bot, name, label), time);
  return { el, name, dot, bot, label, time, side: null };
}

function svgEl(tag, attrs) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  return el;
}

function svgText(text, x, y, cls) {
  const el = svgEl("text", { x, y, class: cls, "text-anchor": "middle" });
  el.textContent = text;
  return el;
}

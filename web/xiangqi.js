// The xiangqi table: an SVG board (click-click or drag, legal targets from the server's
// `legal_moves`, the last move marked, flipped for Black), two clocks running smoothly from
// the server's `clocks`, the record in Chinese notation, resign and draw buttons and the
// result. The server holds every rule: this file only draws what the view says.

import { h, clear } from "./dom.js";
import { tableName } from "./room.js";
import { DuelTable, svgEl, svgText } from "./duel.js";
import { t } from "./i18n.js";
import { errorText } from "./errors.js";
import { chineseMove } from "./notation.js";

export { formatClock } from "./duel.js";

const FILES = "abcdefghi";
const CELL = 100;
const MARGIN = 90;
const WIDTH = 8 * CELL + 2 * MARGIN;
const HEIGHT = 9 * CELL + 2 * MARGIN;

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

/** A sentence for a result, with the rules' term and article (将死, 困毙, 长将…). */
export function describeResult(result) {
  const why = t(`xq.reason.${result.reason}`);
  if (result.reason === "aborted") return t("xq.result.aborted");
  if (!result.winner) return t("xq.result.draw", { why });
  return t("xq.result.win", { side: sideName(result.winner), why });
}

export class XiangqiTable extends DuelTable {
  /**
   * @param root the element to draw in
   * @param ctx { conn, room, toast(text), leave() }
   */
  constructor(root, ctx) {
    super(root, ctx, "xiangqi", ["red", "black"]);
    this.selected = null;
    this.build();
    this.startTicking();
  }

  build() {
    this.cursor = null;
    this.proposed = null;
    this.confirmBox = h("div", { class: "confirm-move", id: "xq-confirm" });
    this.announcer = h("div", { class: "visually-hidden", id: "xq-cursor", "aria-live": "polite" });
    this.buildFrame("xq", [WIDTH, HEIGHT], { status: "xq-status", movesTitle: t("xq.moves"), extra: [this.confirmBox] });
    // The board takes the keyboard: Tab to it, arrows move a cursor, Space or
    // Enter picks a piece and then its target, the confirm button plays the move.
    this.svg.setAttribute("role", "application");
    this.svg.setAttribute("tabindex", "0");
    this.svg.setAttribute("aria-label", t("xq.board_label"));
    this.svg.setAttribute("aria-describedby", "xq-board-help");
    this.svg.addEventListener("keydown", (e) => this.keyDown(e));
    this.svg.addEventListener("focus", () => this.placeCursor());
    this.svg.addEventListener("blur", () => this.drawMarks());
    this.root.querySelector(".xq-main").append(
      h("p", { class: "visually-hidden", id: "xq-board-help" }, t("xq.board_help")), this.announcer);
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

  /** Whether this page's side is to move in check (for the check cue). */
  myCheck() {
    return this.myTurn() && Boolean(this.view?.in_check);
  }

  /** The confirm button of a move picked with the keyboard. */
  renderConfirm() {
    clear(this.confirmBox);
    if (!this.proposed) return;
    const from = this.proposed.slice(0, 2);
    const to = this.proposed.slice(2, 4);
    const chinese = this.pieces ? chineseMove(this.pieces, this.proposed) : null;
    const move = t("xq.move_text", { chinese: chinese ?? this.proposed, from, to });
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

  // --- panel ----------------------------------------------------------------

  renderSide() {
    const v = this.view;
    const room = this.ctx.room;
    const me = this.mySide;
    this.roomLabel.textContent = t("xq.room_label", { table: tableName(room.number, room.title), tc: v.time_control }) +
      (me ? t("xq.you_play", { side: sideName(me) }) : t("xq.watching"));

    // Clocks: the bottom one is this page's side (or Red for spectators).
    this.renderClocks({
      emptySeat: t("xq.empty_seat"), connected: t("seat.connected"), disconnected: t("seat.disconnected"),
      label: (side) => t(`xq.side_label.${side}`), clockOf: (side) => t("xq.clock_of", { side: sideName(side) }),
    });

    // Status line.
    let status;
    if (v.status === "waiting") status = t("xq.status.waiting");
    else if (v.status === "over") status = t("xq.status.over");
    else if (me === v.side_to_move) status = v.in_check ? t("xq.status.your_move_check") : t("xq.status.your_move");
    else status = t(v.in_check ? "xq.status.to_move_check" : "xq.status.to_move", { side: sideName(v.side_to_move) });
    this.status.textContent = status;
    this.statusBase = status;

    this.renderBanner({
      won: t("xq.banner.won"), lost: t("xq.banner.lost"), over: t("xq.banner.over"), draw: t("xq.banner.draw"),
      back: t("table.back_to_lobby"), describe: describeResult,
    });
    this.renderActions({
      offersDraw: (side) => t("xq.draw_offered_by", { side: sideName(side) }), acceptDraw: t("xq.accept_draw"),
      decline: t("xq.decline_draw"), drawOffered: t("xq.draw_offered"), offerDraw: t("xq.offer_draw"),
      resign: t("xq.resign"), reallyResign: t("xq.resign_confirm"), leave: t("table.leave"),
      leaveAndLose: t("xq.leave_confirm"), back: t("table.back_to_lobby"), leaveTable: t("xq.leave_table"),
      flip: t("xq.flip"), stopWatching: t("table.stop_watching"),
    });
    // The record in Chinese notation, a row per full move.
    this.renderMoves((m) => m.chinese);
  }

  /** The first-move countdown's words (DuelTable.tick). */
  firstMoveNote(seconds) {
    return t("xq.first_move_within", { n: seconds });
  }
}

// The international draughts table (国际跳棋, PROTOCOL.md §15): a 10×10 SVG board with the
// dark squares numbered 1–50 as in PDN (White at the bottom for White, flipped for Black),
// click or drag; the pieces that must capture marked; a multi-capture entered square by
// square (each click narrows the server's legal sequences, the last one left is sent) or
// chosen from the offered sequences; the record in numeric notation, both clocks, resign,
// draw offers and the result. The server holds every rule: the legal moves, the pieces that
// must capture and the refusals all come from it; this file only draws what the view says.

import { h, clear } from "./dom.js";
import { tableName } from "./room.js";
import { DuelTable, svgEl, svgText } from "./duel.js";
import { t, has } from "./i18n.js";
import { errorText } from "./errors.js";

/**
 * Every string a person reads on the draughts table and in its lobby form: the catalogue's
 * `dr.*` keys (web/i18n/), read through these getters in the current language.
 */
export const TEXT = {
  get game() { return t("dr.game"); },
  get gameZh() { return t("dr.gameZh"); },
  get white() { return t("dr.white"); },
  get black() { return t("dr.black"); },
  get whiteLabel() { return t("dr.whiteLabel"); },
  get blackLabel() { return t("dr.blackLabel"); },
  get moves() { return t("dr.moves"); },
  get emptySeat() { return t("dr.emptySeat"); },
  get connected() { return t("dr.connected"); },
  get disconnected() { return t("dr.disconnected"); },
  get waiting() { return t("dr.waiting"); },
  get gameOver() { return t("dr.gameOver"); },
  get yourMove() { return t("dr.yourMove"); },
  get yourCapture() { return t("dr.yourCapture"); },
  get watching() { return t("dr.watching"); },
  get youWon() { return t("dr.youWon"); },
  get youLost() { return t("dr.youLost"); },
  get draw() { return t("dr.draw"); },
  get aborted() { return t("dr.aborted"); },
  get backToLobby() { return t("dr.backToLobby"); },
  get acceptDraw() { return t("dr.acceptDraw"); },
  get decline() { return t("dr.decline"); },
  get drawOffered() { return t("dr.drawOffered"); },
  get offerDraw() { return t("dr.offerDraw"); },
  get resign() { return t("dr.resign"); },
  get reallyResign() { return t("dr.reallyResign"); },
  get leave() { return t("dr.leave"); },
  get leaveAndLose() { return t("dr.leaveAndLose"); },
  get leaveTable() { return t("dr.leaveTable"); },
  get flip() { return t("dr.flip"); },
  get stopWatching() { return t("dr.stopWatching"); },
  get chooseCapture() { return t("dr.chooseCapture"); },
  get lobbyTitle() { return t("dr.lobbyTitle"); },
  get lobbyBlurb() { return t("dr.lobbyBlurb"); },
  get timeControl() { return t("dr.timeControl"); },
  get quickPlay() { return t("dr.quickPlay"); },
  get newTable() { return t("dr.newTable"); },
  get yourSide() { return t("dr.yourSide"); },
  get whiteFirst() { return t("dr.whiteFirst"); },
  get playTheBot() { return t("dr.playTheBot"); },
  get botStrength() { return t("dr.botStrength"); },
  get moreRules() { return t("dr.moreRules"); },
  get startFen() { return t("dr.startFen"); },
  get startFenPlaceholder() { return t("dr.startFenPlaceholder"); },
  get createTable() { return t("dr.createTable"); },
  get playBotButton() { return t("dr.playBotButton"); },
  get customStart() { return t("dr.customStart"); },
  toMove: (side) => t("dr.toMove", { side }),
  firstMoveWithin: (s) => t("dr.firstMoveWithin", { s }),
  roomLabel: (table, tc) => t("dr.roomLabel", { table, tc }),
  youPlay: (side) => t("dr.youPlay", { side }),
  drawBy: (why) => t("dr.drawBy", { why }),
  winsBy: (side, why) => t("dr.winsBy", { side, why }),
  offersDraw: (side) => t("dr.offersDraw", { side }),
  mustCapture: (n) => t("dr.mustCapture", { count: n }),
  reasons: new Proxy({}, { get: (_, reason) => (typeof reason === "string" && has(`dr.reason.${reason}`) ? t(`dr.reason.${reason}`) : undefined) }),
};

const CELL = 100;
const MARGIN = 50;
const SIZE = 10 * CELL + 2 * MARGIN;

const other = (side) => (side === "white" ? "black" : "white");
const sideName = (side) => (side === "white" ? TEXT.white : TEXT.black);

/**
 * PROTOCOL.md §15.4: one event's change to the view, a port of the Rust fold
 * `qipai_games::draughts::view::fold` (games/src/draughts/view.rs), which a property test
 * (games/tests/draughts_fold.rs) proves gives exactly the server's snapshot after every step.
 */
export function applyEvent(view, ev) {
  switch (ev.type) {
    case "started":
      view.status = "playing";
      view.fen = ev.fen;
      view.side_to_move = ev.side_to_move;
      view.legal_moves = ev.legal_moves;
      view.must_capture = ev.must_capture;
      view.clocks = ev.clocks;
      view.first_move_deadline = ev.first_move_deadline;
      break;
    case "moved":
      view.fen = ev.fen;
      view.side_to_move = other(ev.side);
      view.legal_moves = ev.legal_moves;
      view.must_capture = ev.must_capture;
      view.last_move = ev.notation;
      view.moves.push(ev.notation);
      view.clocks = ev.clocks;
      view.first_move_deadline = ev.first_move_deadline;
      view.draw_offer = ev.draw_offer ?? null;
      break;
    case "draw_offered":
      view.draw_offer = ev.by;
      view.clocks = ev.clocks;
      break;
    case "draw_declined":
      view.draw_offer = null;
      view.clocks = ev.clocks;
      break;
    case "over":
      view.status = "over";
      view.result = ev.result;
      view.clocks = ev.clocks;
      view.legal_moves = [];
      view.must_capture = [];
      view.first_move_deadline = null;
      view.draw_offer = null;
      break;
    default:
      break;
  }
}

/**
 * The pieces of a PDN FEN (`W:W31,32,K46:B1-20`): a map from square number to
 * { side: "white"|"black", king }. Ranges (`1-20`) are read too.
 */
export function parseFen(fen) {
  const pieces = new Map();
  for (const field of fen.split(":").slice(1)) {
    const side = field[0] === "W" ? "white" : field[0] === "B" ? "black" : null;
    if (!side) continue;
    for (let item of field.slice(1).split(",")) {
      item = item.trim();
      if (!item) continue;
      const king = item[0] === "K";
      if (king) item = item.slice(1);
      const [a, b] = item.split("-").map(Number);
      for (let sq = a; sq <= (b || a); sq++) if (sq >= 1 && sq <= 50) pieces.set(sq, { side, king });
    }
  }
  return pieces;
}

/** A move's squares: `28x19x8` → [28, 19, 8], `32-28` → [32, 28]. */
export const pathOf = (notation) => notation.split(/[-x]/).map(Number);

/**
 * The legal moves still possible after the squares clicked so far (`path`: the piece's
 * square, then landing squares): those whose path starts with them. A click on a move's
 * last square also counts (a drag, or a capture whose middle squares are skipped).
 */
export function narrow(legalMoves, path) {
  return legalMoves.filter((m) => {
    const p = pathOf(m);
    if (path.length > p.length) return false;
    if (path.every((sq, i) => p[i] === sq)) return true;
    // The piece's square, then the move's last square.
    return path.length === 2 && p[0] === path[0] && p[p.length - 1] === path[1];
  });
}

/** A square's row (0 at Black's side, top for White) and column, as PDN numbers them. */
export function rowCol(sq) {
  const row = Math.floor((sq - 1) / 5);
  const col = 2 * ((sq - 1) % 5) + (row % 2 === 0 ? 1 : 0);
  return { row, col };
}

/** A sentence for a result. */
export function describeResult(result) {
  const why = TEXT.reasons[result.reason] ?? result.reason;
  if (result.reason === "aborted") return TEXT.aborted;
  if (!result.winner) return TEXT.drawBy(why);
  return TEXT.winsBy(sideName(result.winner), why);
}

export class DraughtsTable extends DuelTable {
  /**
   * @param root the element to draw in
   * @param ctx { conn, room, toast(text), leave() }
   */
  constructor(root, ctx) {
    super(root, ctx, "draughts", ["white", "black"]);
    this.path = []; // the squares clicked so far: the piece, then landings
    this.refusal = null; // the server's last refusal of a move, shown until the next
    this.build();
    this.startTicking();
  }

  build() {
    this.notice = h("div", { class: "dr-notice", id: "dr-refusal", hidden: true });
    this.choices = h("div", { class: "dr-choices", id: "dr-choices", hidden: true });
    this.buildFrame("dr", [SIZE, SIZE], {
      status: "dr-status", wrap: "dr-wrap", layout: "dr-layout", moves: "dr-moves",
      extra: [this.notice, this.choices], movesTitle: TEXT.moves,
    });
  }

  /** Redraws from the view (called on every snapshot and event). */
  render() {
    const view = this.view;
    if (!view) return;
    if (this.drawnBottom !== this.bottomSide) {
      this.drawGrid();
      this.drawnBottom = this.bottomSide;
    }
    this.pieces = parseFen(view.fen);
    if (this.path.length && !this.canMove()) this.path = [];
    this.drawSelection();
    this.drawPieces();
    this.renderSide();
  }

  /** The marks, the targets and the offered sequences: what depends on the selection. */
  drawSelection() {
    this.drawMarks();
    this.drawTargets();
    this.renderChoices();
  }

  // --- geometry -------------------------------------------------------------

  /** Screen position (SVG units) of a square's centre. */
  point(sq) {
    const { row, col } = rowCol(sq);
    const flipped = this.bottomSide === "black";
    const r = flipped ? 9 - row : row;
    const c = flipped ? 9 - col : col;
    return { x: MARGIN + c * CELL + CELL / 2, y: MARGIN + r * CELL + CELL / 2 };
  }

  /** The dark square under a pointer event, or null. */
  squareAt(e) {
    const ctm = this.svg.getScreenCTM();
    if (!ctm) return null;
    const p = new DOMPoint(e.clientX, e.clientY).matrixTransform(ctm.inverse());
    let c = Math.floor((p.x - MARGIN) / CELL);
    let r = Math.floor((p.y - MARGIN) / CELL);
    if (c < 0 || c > 9 || r < 0 || r > 9) return null;
    if (this.bottomSide === "black") {
      c = 9 - c;
      r = 9 - r;
    }
    if ((r + c) % 2 === 0) return null; // a light square
    return r * 5 + Math.floor(c / 2) + 1;
  }

  // --- drawing --------------------------------------------------------------

  drawGrid() {
    const g = this.layers.grid;
    clear(g);
    clear(this.layers.hits);
    g.append(svgEl("rect", { x: 0, y: 0, width: SIZE, height: SIZE, class: "dr-frame", rx: 14 }));
    for (let r = 0; r < 10; r++) {
      for (let c = 0; c < 10; c++) {
        g.append(svgEl("rect", {
          x: MARGIN + c * CELL, y: MARGIN + r * CELL, width: CELL, height: CELL,
          class: (r + c) % 2 === 0 ? "dr-light" : "dr-dark",
        }));
      }
    }
    for (let sq = 1; sq <= 50; sq++) {
      const { x, y } = this.point(sq);
      g.append(svgText(String(sq), x - CELL / 2 + 6, y - CELL / 2 + 22, "dr-num", "start"));
      this.layers.hits.append(svgEl("rect", {
        x: x - CELL / 2, y: y - CELL / 2, width: CELL, height: CELL,
        class: "dr-hit", "data-sq": sq,
      }));
    }
  }

  /** The moves still open for the selection. */
  candidates() {
    return this.path.length ? narrow(this.legalMoves(), this.path) : [];
  }

  drawMarks() {
    const g = this.layers.marks;
    clear(g);
    const v = this.view;
    const mark = (sq, cls, extra = {}) => {
      const { x, y } = this.point(sq);
      g.append(svgEl("rect", { x: x - CELL / 2, y: y - CELL / 2, width: CELL, height: CELL, class: cls, ...extra }));
    };
    if (v.last_move) for (const sq of pathOf(v.last_move)) mark(sq, "dr-last");
    // Every piece that may move when a capture is compulsory (6.1), as the server lists them.
    if (v.status === "playing") for (const sq of v.must_capture ?? []) mark(sq, "dr-must", { "data-must": sq });
    this.path.forEach((sq, i) => mark(sq, i === 0 ? "dr-selected" : "dr-via", { "data-via": sq }));
  }

  drawPieces() {
    const g = this.layers.pieces;
    clear(g);
    this.pieceEls = new Map();
    for (const [sq, piece] of this.pieces) {
      const { x, y } = this.point(sq);
      const el = svgEl("g", {
        class: `dr-piece ${piece.side}${piece.king ? " king" : ""}`,
        transform: `translate(${x} ${y})`,
        "data-piece": sq,
      });
      el.append(svgEl("circle", { r: 40, class: "dr-disc" }));
      el.append(svgEl("circle", { r: 28, class: "dr-ring" }));
      if (piece.king) el.append(svgText("♛", 0, 14, "dr-crown"));
      g.append(el);
      this.pieceEls.set(sq, el);
    }
  }

  drawTargets() {
    const g = this.layers.targets;
    clear(g);
    const next = new Set();
    for (const m of this.candidates()) {
      const p = pathOf(m);
      if (p.length > this.path.length) next.add(p[this.path.length]);
    }
    for (const sq of next) {
      const { x, y } = this.point(sq);
      g.append(svgEl("circle", { cx: x, cy: y, r: 16, class: "dr-target", "data-target": sq }));
    }
  }

  /** The offered sequences for the selected piece, when there is more than one capture. */
  renderChoices() {
    clear(this.choices);
    const moves = this.candidates();
    const show = moves.length > 1 && moves.some((m) => m.includes("x"));
    this.choices.hidden = !show;
    if (!show) return;
    this.choices.append(h("div", {}, TEXT.chooseCapture),
      ...moves.map((m) => h("button", { class: "small", "data-choice": m, onclick: () => this.play(m) }, m)));
  }

  // --- input ----------------------------------------------------------------

  canMove() {
    const v = this.view;
    return v.status === "playing" && this.mySide === v.side_to_move && !this.pending;
  }

  legalMoves() {
    return this.canMove() ? this.view.legal_moves ?? [] : [];
  }

  /** Whether `sq` holds one of this page's pieces while it may move. */
  ownPiece(sq) {
    return this.canMove() && this.pieces.get(sq)?.side === this.mySide;
  }

  /**
   * A click (or a drop) on `sq`: starts a selection on one of our pieces, extends it along
   * the legal sequences, sends the move once one sequence is left. A plain step the server
   * does not list is still sent: the server's refusal says why (a capture is compulsory, a
   * man does not step backwards).
   */
  choose(sq) {
    if (!this.canMove()) return;
    if (this.path.length) {
      const path = [...this.path, sq];
      const left = narrow(this.legalMoves(), path);
      if (left.length === 1) {
        // One sequence left: it is the move (a capture's squares not yet clicked are implied).
        this.play(left[0]);
        return;
      }
      if (left.length > 1) {
        this.path = path;
        this.drawSelection();
        return;
      }
      if (this.path.length === 1 && !this.pieces.has(sq)) {
        // Not a listed move: sent anyway, and the server's refusal says why.
        this.play(`${this.path[0]}-${sq}`);
        return;
      }
    }
    this.path = this.ownPiece(sq) && sq !== this.path[0] ? [sq] : [];
    this.drawSelection();
  }

  pointerDown(e) {
    const sq = this.squareAt(e);
    if (!sq || e.button > 0) return;
    const picking = this.ownPiece(sq) && this.path.length <= 1 && sq !== this.path[0];
    this.choose(sq);
    if (picking && this.path[0] === sq) {
      this.drag = { from: sq, x: e.clientX, y: e.clientY, moved: false, id: e.pointerId };
      this.svg.setPointerCapture?.(e.pointerId);
    }
  }

  pointerUp(e) {
    const d = this.drag;
    if (!d || d.id !== e.pointerId) return;
    this.drag = null;
    if (!d.moved) return;
    const to = this.squareAt(e);
    this.drawPieces();
    if (to && to !== d.from) this.choose(to);
  }

  async play(notation) {
    this.path = [];
    this.pending = true;
    this.refusal = null;
    this.drawSelection();
    try {
      await this.ctx.conn.request({ type: "draughts", action: { type: "move", notation } });
      // Accepted: the `moved` event that follows redraws the board.
      this.pending = false;
    } catch (err) {
      this.pending = false;
      this.refusal = { code: err.code, message: err.message, notation };
      this.ctx.toast(errorText(err));
      this.render();
    }
  }

  // --- panel ----------------------------------------------------------------

  renderSide() {
    const v = this.view;
    const room = this.ctx.room;
    const me = this.mySide;
    this.roomLabel.textContent = TEXT.roomLabel(tableName(room.number, room.title), v.time_control) +
      (me ? TEXT.youPlay(sideName(me)) : TEXT.watching);
    this.renderClocks({
      emptySeat: TEXT.emptySeat, connected: TEXT.connected, disconnected: TEXT.disconnected,
      label: (side) => (side === "white" ? TEXT.whiteLabel : TEXT.blackLabel),
    });

    let status;
    if (v.status === "waiting") status = TEXT.waiting;
    else if (v.status === "over") status = TEXT.gameOver;
    else if (me === v.side_to_move) status = v.must_capture?.length ? TEXT.yourCapture : TEXT.yourMove;
    else status = TEXT.toMove(sideName(v.side_to_move));
    this.status.textContent = status;
    this.statusBase = status;

    // The server's last refusal, with its stable code, until the next move.
    this.notice.hidden = !this.refusal;
    this.notice.textContent = this.refusal ? errorText(this.refusal) : "";
    if (this.refusal) this.notice.dataset.code = this.refusal.code;

    this.renderBanner({
      won: TEXT.youWon, lost: TEXT.youLost, over: TEXT.gameOver, draw: TEXT.draw,
      back: TEXT.backToLobby, describe: describeResult,
    });
    this.renderActions({ ...TEXT, offersDraw: (side) => TEXT.offersDraw(sideName(side)), back: TEXT.backToLobby });
    // The record in numeric notation, a row per full move (White, Black).
    this.renderMoves((m) => m);
  }

  /** The first-move countdown's words (DuelTable.tick). */
  firstMoveNote(seconds) {
    return TEXT.firstMoveWithin(seconds);
  }
}

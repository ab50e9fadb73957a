// The international draughts table (国际跳棋, PROTOCOL.md §15): a 10×10 SVG board with the
// dark squares numbered 1–50 as in PDN (White at the bottom for White, flipped for Black),
// click or drag; the pieces that must capture marked; a multi-capture entered square by
// square (each click narrows the server's legal sequences, the last one left is sent) or
// chosen from the offered sequences; the record in numeric notation, both clocks, resign,
// draw offers and the result. The server holds every rule: the legal moves, the pieces that
// must capture and the refusals all come from it; this file only draws what the view says.

import { h, clear } from "./dom.js";
import { DuelTable, svgEl, svgText } from "./duel.js";

/**
 * Every string a person reads on the draughts table and in its lobby form, in one place
 * (the Chinese in the comments), so that it moves into the message catalogues in one step.
 */
export const TEXT = {
  game: "Draughts", // 国际跳棋
  gameZh: "国际跳棋",
  white: "White", // 白方
  black: "Black", // 黑方
  whiteLabel: "白 White",
  blackLabel: "黑 Black",
  moves: "Moves", // 着法
  emptySeat: "(empty seat)", // 空座
  connected: "connected", // 在线
  disconnected: "disconnected", // 离线
  waiting: "Waiting for an opponent to sit down…", // 等待对手入座…
  gameOver: "Game over.", // 对局结束。
  yourMove: "Your move.", // 轮到你走。
  yourCapture: "Your move — a capture is compulsory.", // 轮到你走——必须吃子。
  toMove: (side) => `${side} to move.`, // …走棋。
  firstMoveWithin: (s) => `First move within ${s} s.`, // 请在 … 秒内走第一步。
  roomLabel: (id, tc) => `Draughts · table ${id} · ${tc}`, // 国际跳棋 · 第…桌
  youPlay: (side) => ` · you play ${side}`, // 你执…
  watching: " · watching", // 观战
  youWon: "You won!", // 你赢了！
  youLost: "You lost.", // 你输了。
  draw: "Draw", // 和棋
  aborted: "Game aborted before both sides had moved: no result.", // 对局取消，无结果。
  drawBy: (why) => `Draw by ${why}.`, // 因…和棋。
  winsBy: (side, why) => `${side} wins by ${why}.`, // …因…获胜。
  backToLobby: "Back to the lobby", // 返回大厅
  offersDraw: (side) => `${side} offers a draw.`, // …提和。
  acceptDraw: "Accept draw", // 同意和棋
  decline: "Decline", // 拒绝
  drawOffered: "Draw offered…", // 已提和…
  offerDraw: "Offer draw", // 提和
  resign: "Resign", // 认输
  reallyResign: "Really resign?", // 确定认输？
  leave: "Leave", // 离开
  leaveAndLose: "Leave and lose?", // 离开并判负？
  leaveTable: "Leave table", // 离开棋桌
  flip: "Flip board", // 翻转棋盘
  stopWatching: "Stop watching", // 停止观战
  chooseCapture: "Choose the capture:", // 选择吃法：
  mustCapture: (n) => `Capture compulsory: ${n} piece${n === 1 ? "" : "s"} to take.`, // 必须吃子：吃…子。
  refused: (code, message) => `Refused (${code}): ${message}`, // 被拒绝（…）：…
  reasons: {
    no_legal_move: "no legal move", // 无子可走
    repetition: "threefold repetition", // 三次重复
    king_moves: "25 king moves without a capture", // 25 步只动王棋
    sixteen_moves: "the 16-move rule", // 16 步规则
    five_moves: "the 5-move rule", // 5 步规则
    resignation: "resignation", // 认输
    time_forfeit: "time", // 超时
    agreement: "agreement", // 协议和棋
    abandoned: "abandonment", // 弃局
    aborted: "abort", // 取消
  },
  // The lobby's draughts form (web/lobby.js).
  lobbyTitle: "国际跳棋 Draughts",
  lobbyBlurb: "International draughts on a 10×10 board: captures are compulsory, the most pieces.", // 10×10 国际跳棋：必须吃子，吃最多的。
  timeControl: "Time control ", // 用时
  quickPlay: "Quick play", // 快速开始
  newTable: "New draughts table", // 新建国际跳棋棋桌
  yourSide: "Your side ", // 你执
  whiteFirst: "White (moves first)", // 白方（先走）
  playTheBot: " Play the bot (no need to wait for a person)", // 与机器人对弈
  botStrength: "Bot strength ", // 机器人强度
  moreRules: "More rules", // 更多规则
  startFen: "Start position (FEN) ", // 开局局面（FEN）
  startFenPlaceholder: "the usual start", // 标准开局
  createTable: "Create table", // 建桌
  playBotButton: "Play the bot", // 与机器人对弈
  customStart: "custom start", // 自定义开局
};

/** The time controls offered for draughts: Fischer ones and sudden death. */
export const DRAUGHTS_TIME_CONTROLS = [
  ["30+10", "30 min + 10 s a move"], // 30 分钟 + 每步 10 秒
  ["10+5", "10 min + 5 s a move"],
  ["5+3", "5 min + 3 s a move"],
  ["3+2", "3 min + 2 s a move"],
  ["sd:30", "30 min for the whole game"], // 包干 30 分钟
];

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
      this.ctx.toast(err.message);
      this.render();
    }
  }

  // --- panel ----------------------------------------------------------------

  renderSide() {
    const v = this.view;
    const room = this.ctx.room;
    const me = this.mySide;
    this.roomLabel.textContent = TEXT.roomLabel(room.roomId, v.time_control) +
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
    this.notice.textContent = this.refusal ? TEXT.refused(this.refusal.code, this.refusal.message) : "";
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

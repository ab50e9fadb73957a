#!/usr/bin/env python3
"""Writes draughts_moves.txt: positions and their legal moves from pydraughts.

International draughts is pydraughts' "standard" variant. pydraughts lists a flying king's
capture once per route; this file keeps each move once as (from, to, captured squares), the
way qipai counts them (rules page, "Verification").

    pip install pydraughts==0.6.7
    python3 games/tests/data/gen_draughts.py > games/tests/data/draughts_moves.txt

Positions: every position of seeded random games from the start (so kings appear late in the
games), and seeded random boards of kings and men (long multi-captures, majority choices).
Line format: `FEN<TAB>move;move;...` with each move as `from-to:c1,c2` (captured squares
ascending, empty for a plain move), moves sorted; an empty move list means no legal move.
"""

import random
import sys

import draughts
from draughts import Board

SEED = 16
GAMES = 12
RANDOM_BOARDS = 700


def moves_of(board):
    out = set()
    for m in board.legal_moves():
        steps = m.steps_move
        caps = sorted(m.captures or [])
        out.add(f"{steps[0]}-{steps[-1]}:{','.join(map(str, caps))}")
    return sorted(out)


def random_board(rng):
    squares = list(range(1, 51))
    rng.shuffle(squares)
    white_kings = rng.randint(0, 3)
    black_kings = rng.randint(0, 2)
    white_men = rng.randint(0, 10)
    black_men = rng.randint(3, 18)
    white, black = [], []
    for _ in range(white_kings):
        white.append(f"K{squares.pop()}")
    for _ in range(black_kings):
        black.append(f"K{squares.pop()}")
    for _ in range(white_men):
        s = squares.pop()
        if s > 5:
            white.append(str(s))
    for _ in range(black_men):
        s = squares.pop()
        if s < 46:
            black.append(str(s))
    if not white or not black:
        return None
    side = rng.choice("WB")
    return f"{side}:W{','.join(white)}:B{','.join(black)}"


def main():
    rng = random.Random(SEED)
    seen = set()
    lines = []

    def record(fen, board):
        if fen in seen:
            return
        seen.add(fen)
        lines.append(f"{fen}\t{';'.join(moves_of(board))}")

    for _ in range(GAMES):
        board = Board(variant="standard")
        for _ in range(150):
            fen = board.fen
            record(fen, board)
            legal = board.legal_moves()
            if not legal:
                break
            board.push(rng.choice(legal))
    for _ in range(RANDOM_BOARDS):
        fen = random_board(rng)
        if fen is None:
            continue
        record(fen, Board(variant="standard", fen=fen))
    print(f"# pydraughts {draughts.__version__ if hasattr(draughts, '__version__') else '0.6.7'}, "
          f"variant standard, seed {SEED}; written by gen_draughts.py")
    for line in lines:
        print(line)
    longest = max(max((len(m.split(':')[1].split(',')) for m in l.split('\t')[1].split(';')
                       if m.endswith(':') is False and ':' in m), default=0) for l in lines)
    print(f"{len(lines)} positions, longest capture {longest}", file=sys.stderr)


if __name__ == "__main__":
    main()

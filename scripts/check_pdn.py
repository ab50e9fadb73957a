#!/usr/bin/env python3
"""Reads international draughts PDN files written by qipai back with pydraughts.

For every PDN given (a file, or a folder of `*.pdn`) it parses the file with pydraughts'
own PDN reader (`draughts.PDN.PDNReader`: tags, `GameType`, `FEN`, the movetext), replays
the moves on pydraughts' board of the `standard` (10x10, FMJD) variant from the start
position (the `FEN` tag, else the usual start), checking that each move is one of
pydraughts' legal moves in the position, and compares the position it reaches with the
record's final FEN (`final.fen` of `NAME.json` beside `NAME.pdn`): side to move, men and
kings of each side.

    pip install pydraughts                                  # 0.6.7
    QIPAI_PDN_DIR=/tmp/qipai-pdn cargo test -p qipai-server --test pdn
    python3 scripts/check_pdn.py /tmp/qipai-pdn
    python3 scripts/check_pdn.py --golden server/tests/data/pydraughts_pdn.txt /tmp/qipai-pdn

`--golden FILE` also writes, per game, `NAME<TAB>plies<TAB>final FEN` for each game
pydraughts replayed to the record's position: the file the Rust test `server/tests/pdn.rs`
compares with (so CI needs no Python). Exit status 1 when any game fails.
"""

import json
import os
import sys

import draughts
from draughts import Board
from draughts.PDN import PDNReader

START = "W:W31-50:B1-20"


def position(fen):
    """(side, {(colour, square, king)}) of a PDN FEN, ranges (`1-20`) read too."""
    fields = fen.split(":")
    side = fields[0].strip().upper()
    pieces = set()
    for field in fields[1:]:
        colour = field[0].upper()
        for item in field[1:].split(","):
            item = item.strip()
            if not item:
                continue
            king = item[0] == "K"
            item = item.lstrip("K")
            if "-" in item:
                a, b = item.split("-")
                squares = range(int(a), int(b) + 1)
            else:
                squares = [int(item)]
            for sq in squares:
                pieces.add((colour, sq, king))
    return side, pieces


def check(pdn_path):
    name = os.path.splitext(os.path.basename(pdn_path))[0]
    with open(pdn_path, encoding="utf-8") as f:
        text = f.read()
    game = PDNReader(pdn_text=text).games[0]
    if game.variant not in (None, "standard"):
        return name, None, f"GameType says {game.variant}"
    fen = game.tags.get("FEN", START)
    moves = list(game.moves)
    # pydraughts 0.6.7's reader repeats the first move of a game that starts with Black to
    # move (`1... 24-30 2. 37-31` reads as 24-30, 24-30, 37-31), also in files its own
    # PDNWriter wrote: drop the copy.
    if fen.upper().startswith("B") and len(moves) > 1 and moves[0] == moves[1]:
        moves = moves[1:]
    board = Board(variant="standard", fen=fen)
    for i, move in enumerate(moves):
        # pydraughts writes a capture as `from x to`; ours lists every landing square
        # (`28x19x8`), so a legal move is matched by its squares, every landing compared.
        path = [int(sq) for sq in move.replace("x", "-").split("-")]
        legal = board.legal_moves()
        found = [m for m in legal if m.steps_move == path]
        if not found:
            names = sorted(f"{m.pdn_move} {m.steps_move}" for m in legal)
            return name, None, f"ply {i + 1}: {move} is not legal to pydraughts ({names})"
        board.push(found[0])
    with open(os.path.join(os.path.dirname(pdn_path), name + ".json"), encoding="utf-8") as f:
        record = json.load(f)
    want = record["final"]["fen"]
    if position(board.fen) != position(want):
        return name, None, f"final position differs: pydraughts {board.fen}, record {want}"
    return name, (len(moves), want), None


def main(argv):
    golden = None
    if argv[:1] == ["--golden"]:
        golden, argv = argv[1], argv[2:]
    files = []
    for arg in argv:
        if os.path.isdir(arg):
            files += sorted(os.path.join(arg, f) for f in os.listdir(arg) if f.endswith(".pdn"))
        else:
            files.append(arg)
    print("pydraughts", getattr(draughts, "__version__", "?"))
    failed = False
    lines = []
    for path in files:
        name, ok, why = check(path)
        if ok:
            print(f"{name}: ok: {ok[0]} plies legal to pydraughts, final position equal: {ok[1]}")
            lines.append(f"{name}\t{ok[0]}\t{ok[1]}")
        else:
            failed = True
            print(f"{name}: FAILED: {why}")
    if golden:
        with open(golden, "w", encoding="utf-8") as f:
            f.write("\n".join(lines) + "\n")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

#!/usr/bin/env python3
"""Writes games/tests/data/xiangqi_chase.txt: repetition cycles judged by Fairy-Stockfish.

Each case is a position (Red to move) and a four-ply cycle played twice, so that the start
position stands for the third time after the eighth ply (4.2.3). Fairy-Stockfish's xiangqi
rules (perpetual check and its chase rule, `pyffish.is_optional_game_end`) give the
expected outcome: `red`, `black` (the winner) or `draw`. The Rust test
(games/tests/xiangqi_chase.rs) replays every case through `History` and compares; it needs
no Python.

Positions are random and sparse (both kings, a few pieces on points they can legally
stand on), and the cycle's first move is biased toward attacking an opponent piece, so
that chases are common. Cases are kept per category (the kinds of the two moving pieces,
whether a side checks, the outcome) so that the file covers: chases of unprotected pieces,
a rook chased by a horse or cannon, mutual chases, chase against check, kings and pawns
that do not chase, and protected pieces (draws).

After the random cases come the hand-made ones of HAND: one cycle for each class where the
rules had to decide (rules/xiangqi.md, "Perpetual chase"): a pinned piece's attack, an
elephant on a protected cannon, two pieces of one kind whose take-back is illegal, a pawn's
attack, and a crossed pawn chased. Their tags start with `hand:`.

Where qipai's rule differs from Fairy-Stockfish's on purpose, DIFFERS below names the case
by its position and moves, with qipai's outcome and why; the generator writes both.

Usage: pip install pyffish; python3 games/tests/data/gen_chase.py [seed]
"""

import random
import sys
import time

import pyffish as sf

V = "xiangqi"
FILES = "abcdefghi"
PER_CATEGORY = 6
TARGET = 260
LIMIT_S = 150
EXTRA = 200

PINNED = ("4k4/9/9/9/9/9/9/6c2/5R3/3K1N2r w - - 0 1", "f1f3 g2g1 f3f1 g1g2 " * 2)
TAKE_BACK = ("9/9/4bkC2/3n5/6b2/3r5/5R3/6c2/4K4/9 b - - 1 1", "d4f4 f3g3 f4d4 g3f3 " * 2)

# Hand-made cycles, one per decided class: (fen, moves (ICCS), tags, why).
HAND = [
    PINNED + ("hand:pinned-attacker red:r black:c",
              "f1f3 uncovers the pinned horse's attack on the cannon: no legal capture, no chase"),
    ("9/9/3k5/9/9/2c6/9/1n4R2/4K4/6B2 w - - 0 1",
     "g0e2 c4i4 g2g4 i4i2 e2g0 i2c2 g4g2 c2c4 " * 2,
     "hand:elephant-on-protected red:b black:c",
     "an elephant attacking a cannon chases it though a horse protects it"),
    TAKE_BACK + ("hand:illegal-take-back red:r black:r",
                 "g3f3 checks and uncovers cannon on cannon: Black may not take back, so Red chases"),
    ("3k5/9/4c4/3P5/9/9/9/9/5K3/9 w - - 0 1", "d6e6 e7d7 e6d6 d7e7 " * 2,
     "hand:pawn-attacker red:p black:c", "a crossed pawn's attacks are no chase"),
    ("5k3/9/9/9/9/2p6/9/9/3R5/4K4 w - - 0 1", "d1c1 c4d4 c1d1 d4c4 " * 2,
     "hand:crossed-pawn-chased red:r black:p", "a pawn across the river may be chased"),
]

# Cases where qipai differs on purpose: (fen, moves) -> (qipai's outcome, why).
DIFFERS = {
    (PINNED[0], PINNED[1].strip()): (
        "draw",
        "a pinned piece cannot legally capture, so its attack threatens nothing next move "
        "(rules/xiangqi.md, Perpetual chase [D])",
    ),
    (TAKE_BACK[0], TAKE_BACK[1].strip()): (
        "black",
        "an exchange the victim may not legally accept (in check) is no exchange offer: the "
        "attack is a chase (rules/xiangqi.md, Perpetual chase [D])",
    ),
}


def iccs_to_uci(m):
    """ICCS ranks 0-9 -> Fairy-Stockfish's 1-10."""
    return f"{m[0]}{int(m[1]) + 1}{m[2]}{int(m[3]) + 1}"


def uci_to_iccs(m):
    a, rest = m[0], m[1:]
    i = 1
    while rest[i].isdigit():
        i += 1
    r1, b, r2 = int(rest[:i]), rest[i], int(rest[i + 1:])
    return f"{a}{r1 - 1}{b}{r2 - 1}"


def fen_of(board, side):
    rows = []
    for rank in range(9, -1, -1):
        row, empty = "", 0
        for f in range(9):
            p = board.get((f, rank))
            if p is None:
                empty += 1
            else:
                if empty:
                    row += str(empty)
                    empty = 0
                row += p
        if empty:
            row += str(empty)
        rows.append(row)
    return "/".join(rows) + f" {side} - - 0 1"


def points(kind, red):
    """Points a piece of `kind` may legally stand on (ranks from Red's side)."""
    own = range(0, 5) if red else range(5, 10)
    palace_ranks = range(0, 3) if red else range(7, 10)
    if kind == "k":
        return [(f, r) for f in range(3, 6) for r in palace_ranks]
    if kind == "a":
        base = 0 if red else 7
        return [(3, base), (5, base), (4, base + 1), (3, base + 2), (5, base + 2)]
    if kind == "b":
        base = 0 if red else 5
        return [(2, base), (6, base), (0, base + 2), (4, base + 2), (8, base + 2), (2, base + 4), (6, base + 4)]
    if kind == "p":
        if red:
            return [(f, r) for f in (0, 2, 4, 6, 8) for r in (3, 4)] + [(f, r) for f in range(9) for r in range(5, 10)]
        return [(f, r) for f in (0, 2, 4, 6, 8) for r in (5, 6)] + [(f, r) for f in range(9) for r in range(0, 5)]
    return [(f, r) for f in range(9) for r in range(10)]


def random_position(rng):
    board = {}
    for red in (True, False):
        k = rng.choice(points("k", red))
        board[k] = "K" if red else "k"
    if board and list(board.keys())[0][0] == list(board.keys())[1][0]:
        return None  # kings on one file: often facing; skip
    menu = ["r", "n", "c", "p", "a", "b", "r", "n", "c", "p"]
    for red in (True, False):
        for kind in rng.sample(menu, rng.randint(1, 4)):
            free = [p for p in points(kind, red) if p not in board]
            if free:
                board[rng.choice(free)] = kind.upper() if red else kind
    fen = fen_of(board, "w")
    if sf.validate_fen(fen, V) != sf.FEN_OK:
        return None
    # Black must not be in check with Red to move.
    if sf.gives_check(V, fen_of(board, "b"), []):
        return None
    if sf.gives_check(V, fen, []):
        return None
    return fen, board


def kind_at(board, sq):
    f, r = FILES.index(sq[0]), int(sq[1])
    return board.get((f, r))


def empty_at(board, uci):
    sq = uci_to_iccs(uci)[2:]
    return (FILES.index(sq[0]), int(sq[1])) not in board


def moved(board, uci):
    """`board` after the quiet move `uci`."""
    m = uci_to_iccs(uci)
    a, b = (FILES.index(m[0]), int(m[1])), (FILES.index(m[2]), int(m[3]))
    out = dict(board)
    out[b] = out.pop(a)
    return out


def back(uci):
    m = uci_to_iccs(uci)
    return iccs_to_uci(m[2:] + m[:2])


def cycles(rng, fen, board, limit=12):
    """Four-ply cycles from `fen` (Red, Black, Red back, Black back), no captures, each
    played twice."""
    red = [m for m in sf.legal_moves(V, fen, []) if empty_at(board, m)]
    rng.shuffle(red)
    for m1 in red[:limit]:
        b1 = moved(board, m1)
        black = [m for m in sf.legal_moves(V, fen, [m1]) if empty_at(b1, m)]
        rng.shuffle(black)
        for m2 in black[:limit]:
            m3, m4 = back(m1), back(m2)
            if m3 not in sf.legal_moves(V, fen, [m1, m2]):
                continue
            if m4 not in sf.legal_moves(V, fen, [m1, m2, m3]):
                continue
            yield [m1, m2, m3, m4] * 2


MAX = {"k": 1, "a": 2, "b": 2, "n": 2, "r": 2, "c": 2, "p": 5}


def too_many(board):
    """More pieces of a kind than a side starts with (no such position can arise)."""
    pieces = list(board.values())
    return any(pieces.count(p) > MAX[p.lower()] for p in set(pieces))


def board_of(fen):
    board = {}
    for i, row in enumerate(fen.split()[0].split("/")):
        rank, f = 9 - i, 0
        for ch in row:
            if ch.isdigit():
                f += int(ch)
            else:
                board[(f, rank)] = ch
                f += 1
    return board


def board_after(board, moves):
    for m in moves:
        board = moved(board, m)
    return board


def mirror(uci):
    m = uci_to_iccs(uci)
    flip = lambda c: FILES[8 - FILES.index(c)]
    return iccs_to_uci(flip(m[0]) + m[1] + flip(m[2]) + m[3])


def judge(fen, moves):
    end, value = sf.is_optional_game_end(V, fen, moves)
    if not end:
        return None
    # value is from the view of the side to move at the end.
    if value == 0:
        return "draw"
    red_to_move = sf.get_fen(V, fen, moves).split()[1] == "w"
    return "red" if (value > 0) == red_to_move else "black"


def category(fen, board, moves):
    checks = []
    for side in (0, 1):
        checks.append(all(sf.gives_check(V, fen, moves[: i + 1]) for i in range(side, 8, 2)))
    movers = [kind_at(board, uci_to_iccs(moves[0])[:2]), kind_at(board, uci_to_iccs(moves[1])[:2])]
    return movers, checks


def main():
    seed = int(sys.argv[1]) if len(sys.argv) > 1 else 12
    rng = random.Random(seed)
    kept = {}
    cases = []
    tries = 0
    began = time.time()
    while len(cases) < TARGET and time.time() - began < LIMIT_S:
        tries += 1
        made = random_position(rng)
        if made is None:
            continue
        fen, board = made
        for moves in cycles(rng, fen, board):
            result = judge(fen, moves)
            if result is None:
                continue
            movers, checks = category(fen, board, moves)
            key = (movers[0].lower(), movers[1].lower(), checks[0], checks[1], result)
            quota = PER_CATEGORY if result != "draw" or any(checks) else 2
            if kept.get(key, 0) >= quota:
                continue
            kept[key] = kept.get(key, 0) + 1
            iccs = " ".join(uci_to_iccs(m) for m in moves)
            tags = f"red:{movers[0].lower()} black:{movers[1].lower()}"
            if checks[0]:
                tags += " red-checks"
            if checks[1]:
                tags += " black-checks"
            cases.append((fen, iccs, result, tags))
            break
    # Second stage: each decisive case again with one or two extra pieces added at random
    # (a protector, a blocker, or a bystander), and mirrored left-right; Fairy-Stockfish
    # judges each anew, so protected pieces and blocked attacks come out as draws.
    decisive = [c for c in cases if c[2] != "draw"]
    base_count = len(cases)
    began = time.time()
    while decisive and len(cases) < base_count + EXTRA and time.time() - began < LIMIT_S:
        fen, iccs, _, tags = rng.choice(decisive)
        moves = [iccs_to_uci(m) for m in iccs.split()]
        board = board_of(fen)
        if rng.random() < 0.25:
            board = {(8 - f, r): p for (f, r), p in board.items()}
            moves = [mirror(m) for m in moves]
        for _ in range(rng.randint(1, 2)):
            red = rng.random() < 0.5
            kind = rng.choice(["r", "n", "c", "p", "a", "b"])
            free = [q for q in points(kind, red) if q not in board]
            if free:
                board[rng.choice(free)] = kind.upper() if red else kind
        new_fen = fen_of(board, "w")
        if too_many(board) or sf.validate_fen(new_fen, V) != sf.FEN_OK or sf.gives_check(V, fen_of(board, "b"), []):
            continue
        if any(m not in sf.legal_moves(V, new_fen, moves[:i]) or not empty_at(board_after(board, moves[:i]), m)
               for i, m in enumerate(moves)):
            continue
        result = judge(new_fen, moves)
        if result is None:
            continue
        new_iccs = " ".join(uci_to_iccs(m) for m in moves)
        if any(c[0] == new_fen and c[1] == new_iccs for c in cases):
            continue
        _, checks = category(new_fen, board, moves)
        new_tags = tags.split(" red-checks")[0].split(" black-checks")[0] + " varied"
        if checks[0]:
            new_tags += " red-checks"
        if checks[1]:
            new_tags += " black-checks"
        cases.append((new_fen, new_iccs, result, new_tags))
    for fen, iccs, tags, why in HAND:
        result = judge(fen, [iccs_to_uci(m) for m in iccs.split()])
        cases.append((fen, iccs.strip(), result, tags, why))
    out = sys.stdout
    out.write("# Xiangqi repetition cycles judged by Fairy-Stockfish (pyffish %s), written by\n" % ".".join(map(str, sf.version())))
    out.write("# games/tests/data/gen_chase.py (seed %d). One case a line, fields separated by ' | ':\n" % seed)
    out.write("# fen | moves (ICCS) | Fairy-Stockfish's outcome | qipai's outcome when it differs, '-' else | tags | why\n")
    for fen, iccs, result, tags, *said in cases:
        ours, why = DIFFERS.get((fen, iccs), ("-", "".join(said)))
        out.write(f"{fen} | {iccs} | {result} | {ours} | {tags} | {why}\n")
    sys.stderr.write(f"{len(cases)} cases from {tries} tries; {len(kept)} categories\n")


if __name__ == "__main__":
    main()

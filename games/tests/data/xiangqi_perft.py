#!/usr/bin/env python3
"""Independent xiangqi perft counts for games/tests/data/xiangqi.perft.

Counts come from Fairy-Stockfish (the `pyffish` binding, `pip install pyffish`), not from
qipai's move generator. Fairy-Stockfish numbers ranks 1-10 from Red's side; ICCS (and qipai)
numbers them 0-9, so moves are translated before they are passed back.

Usage: python3 xiangqi_perft.py "<FEN>" DEPTH [DEPTH...]
Prints one line `perft DEPTH NODES` per depth, in the format of xiangqi.perft.
"""
import sys

import pyffish as sf


def perft(fen, moves, depth):
    legal = sf.legal_moves("xiangqi", fen, moves)
    if depth == 1:
        return len(legal)
    return sum(perft(fen, moves + [m], depth - 1) for m in legal)


def main():
    fen = sys.argv[1]
    for depth in map(int, sys.argv[2:]):
        print(f"perft {depth} {perft(fen, [], depth)}", flush=True)


if __name__ == "__main__":
    main()

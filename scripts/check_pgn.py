#!/usr/bin/env python3
"""Reads xiangqi PGN files written by qipai back with pyffish (Fairy-Stockfish).

For every PGN given (a file, a folder of `*.pgn`, or a server URL `http://HOST/api/games/ID`)
it replays the ICCS movetext from the start position (the `FEN` tag, else the usual start),
checking that pyffish lists each move as legal, and compares the position it reaches with the
record's final FEN (`final.fen` of the JSON record: `NAME.json` beside `NAME.pgn`, or the
same URL without `.pgn`). Board and side to move are compared; the move counters are not.

Rank numbering: ICCS (as qipai, xqbase and ChessDB write it) numbers ranks 0-9 from Red's
side; Fairy-Stockfish/pyffish number them 1-10 (`h2e2` in ICCS is `h3e3` to pyffish). The
script converts; files a-i are the same.

    pip install pyffish
    QIPAI_PGN_DIR=/tmp/qipai-pgn cargo test -p qipai-server --test pgn
    python3 scripts/check_pgn.py /tmp/qipai-pgn
    python3 scripts/check_pgn.py --golden server/tests/data/pyffish_pgn.txt /tmp/qipai-pgn

`--golden FILE` also writes, per game, `NAME<TAB>plies<TAB>board side` as pyffish reached
it: the file the Rust test `server/tests/pgn.rs` compares with (so CI needs no Python).
Exit status 1 when any game fails.
"""

import json
import os
import re
import sys
import urllib.request

import pyffish as sf

TAG = re.compile(r'^\[(\w+)\s+"(.*)"\]\s*$')
ICCS = re.compile(r'^([A-Ia-i])([0-9])-?([A-Ia-i])([0-9])$')


def parse_pgn(text):
    tags, movetext = {}, []
    for line in text.splitlines():
        m = TAG.match(line.strip())
        if m:
            tags[m.group(1)] = m.group(2)
        else:
            movetext.append(line)
    body = re.sub(r'\{[^}]*\}', ' ', ' '.join(movetext))
    moves = []
    for token in body.split():
        if re.match(r'^\d+\.+$', token) or token in ('1-0', '0-1', '1/2-1/2', '*'):
            continue
        moves.append(token)
    return tags, moves


def to_uci(iccs):
    """ICCS `H2-E2` (ranks 0-9) as pyffish's `h3e3` (ranks 1-10)."""
    m = ICCS.match(iccs)
    if not m:
        raise ValueError(f'not ICCS: {iccs!r}')
    f1, r1, f2, r2 = m.groups()
    return f'{f1.lower()}{int(r1) + 1}{f2.lower()}{int(r2) + 1}'


def board_and_side(fen):
    return ' '.join(fen.split()[:2])


def check(name, pgn_text, record):
    tags, moves = parse_pgn(pgn_text)
    start = tags.get('FEN') or sf.start_fen('xiangqi')
    played = []
    for i, iccs in enumerate(moves):
        fen = sf.get_fen('xiangqi', start, played)
        uci = to_uci(iccs)
        if uci not in sf.legal_moves('xiangqi', fen, []):
            return False, f'ply {i + 1} {iccs} ({uci}) is not legal to pyffish in {fen}', None
        played.append(uci)
    final = board_and_side(sf.get_fen('xiangqi', start, played))
    want = board_and_side(record['final']['fen'])
    if final != want:
        return False, f'final position differs: pyffish {final}, record {want}', None
    return True, f'{len(moves)} plies legal to pyffish, final position equal: {final}', (len(moves), final)


def load(arg):
    """(name, pgn text, record) for every game that `arg` names."""
    if arg.startswith('http://') or arg.startswith('https://'):
        base = arg[:-4] if arg.endswith('.pgn') else arg
        with urllib.request.urlopen(base + '.pgn') as r:
            pgn = r.read().decode('utf-8')
        with urllib.request.urlopen(base) as r:
            record = json.loads(r.read().decode('utf-8'))
        yield base.rsplit('/', 1)[-1], pgn, record
        return
    files = [arg] if os.path.isfile(arg) else sorted(
        os.path.join(arg, f) for f in os.listdir(arg) if f.endswith('.pgn'))
    for path in files:
        with open(path, encoding='utf-8') as f:
            pgn = f.read()
        with open(path[:-4] + '.json', encoding='utf-8') as f:
            record = json.load(f)
        yield os.path.basename(path)[:-4], pgn, record


def main(argv):
    golden = None
    if len(argv) > 1 and argv[0] == '--golden':
        golden, argv = argv[1], argv[2:]
    if not argv:
        print(__doc__)
        return 2
    print(f'pyffish {sf.version()}')
    failed, lines = 0, []
    for arg in argv:
        for name, pgn, record in load(arg):
            ok, message, result = check(name, pgn, record)
            print(f'{name}: {"ok" if ok else "FAIL"}: {message}')
            if ok:
                lines.append(f'{name}\t{result[0]}\t{result[1]}')
            else:
                failed += 1
    if golden and not failed:
        with open(golden, 'w', encoding='utf-8') as f:
            f.write('# scripts/check_pgn.py --golden: NAME<TAB>plies<TAB>board side, as pyffish replayed them\n')
            f.write('\n'.join(lines) + '\n')
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))

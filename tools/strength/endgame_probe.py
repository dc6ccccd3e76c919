"""Which 50-move draws of a self-play file were drawn by nature.

Replays every game drawn by the 50-move rule (as endings.py does) and,
for each whose last position has at most four pieces (a construct counts
once), asks `legion endgame --fen` for the value of every position since
the material shrank to four pieces (castling rights aside). Usage:

    python3 tools/strength/endgame_probe.py GAMES.pgn [path/to/legion]

Prints, per game, how many of those positions are won, drawn or lost for
the side to move, and the first that is not drawn.
"""

import collections
import subprocess
import sys

import endings


def pieces(lfen):
    placement = lfen.split()[0]
    return sum(1 for c in placement if c.isalpha()) - placement.count("[")


def main():
    path = sys.argv[1]
    legion = sys.argv[2] if len(sys.argv) > 2 else "target/release/legion"
    games = endings.records(open(path, encoding="utf-8").read())
    fifty = [g for g in games if "50-move" in g[0].get("Termination", "") or
             "50-move" in g[0].get("Reason", "")]
    for n, (tags, moves) in enumerate(fifty, 1):
        base = [legion, "apply"] + (["--fen", tags["FEN"]] if "FEN" in tags else [])

        def after(k):
            return subprocess.run(base + moves[:k], capture_output=True, text=True,
                                  check=True).stdout.strip()

        final = after(len(moves))
        if pieces(final) > 4:
            print(f"{n:2} {endings.material(final):20} {pieces(final)} pieces: too many")
            continue
        fens = []
        for k in range(len(moves), -1, -1):
            lfen = after(k)
            if pieces(lfen) > 4 or lfen.split()[2] != "-":
                break
            fens.append(lfen)
        fens.reverse()
        args = [legion, "endgame"]
        for f in fens:
            args += ["--fen", f]
        out = subprocess.run(args, capture_output=True, text=True, check=True).stdout
        heads = {f.split()[0] for f in fens}
        values = [line.split(": ", 1)[1] for line in out.splitlines()
                  if line.split(" ")[0] in heads and ": " in line]
        kinds = collections.Counter(
            "won" if " wins " in v else "lost" if " loses " in v else "drawn" for v in values)
        first = next((f"{fens[i]}: {v}" for i, v in enumerate(values) if "drawn" not in v),
                     "none")
        print(f"{n:2} {endings.material(final):20} {len(fens)} positions with 4 pieces "
              f"or fewer: {dict(kinds)}; first not drawn: {first}")


if __name__ == "__main__":
    main()

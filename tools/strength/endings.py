"""What is left on the board when self-play games end by the 50-move rule.

Reads the records `legion match --save FILE` writes (RULES 6.5), replays
each game drawn by the 50-move rule with `legion apply`, and counts the
material of its last position. Usage:

    legion match --engine1 engine --engine2 engine --movetime 100 --games 60 \\
        --save /tmp/selfplay.pgn
    python3 tools/strength/endings.py /tmp/selfplay.pgn [path/to/legion]

Prints the share of 50-move draws and the most common endings, each as
White's pieces against Black's (a construct counts as its Captor; its
prisoner is listed after a slash).
"""

import collections
import re
import subprocess
import sys

TAG = re.compile(r'^\[(\w+) "(.*)"\]$')
NUMBER = re.compile(r"^\d+\.+$")
RESULTS = {"1-0", "0-1", "1/2-1/2", "*"}
ORDER = "KQRBNTM"


def records(text):
    """(tags, moves) of every game in the file."""
    games, tags, moves = [], {}, []
    for line in text.splitlines() + [""]:
        line = line.strip()
        m = TAG.match(line)
        if m:
            if moves:
                games.append((tags, moves))
                tags, moves = {}, []
            tags[m.group(1)] = m.group(2)
        elif line:
            text = re.sub(r"\{[^}]*\}", " ", line)
            for word in text.split():
                if NUMBER.match(word) or word in RESULTS:
                    continue
                word = re.sub(r"^\d+\.+", "", word)
                if word:
                    moves.append(word)
    if moves or tags:
        games.append((tags, moves))
    return games


def material(lfen):
    """'KRT vs KR' for the placement of an LFEN."""
    placement = lfen.split()[0]
    sides = {"w": [], "b": []}
    i = 0
    while i < len(placement):
        c = placement[i]
        if c == "[":
            end = placement.index("]", i)
            captor, prisoner = placement[i + 1], placement[i + 2]
            side = "w" if captor.isupper() else "b"
            sides[side].append(captor.upper() + "/" + prisoner.upper())
            i = end + 1
            continue
        if c.isalpha():
            sides["w" if c.isupper() else "b"].append(c.upper())
        i += 1

    def text(pieces):
        return "".join(sorted(pieces, key=lambda p: (ORDER.index(p[0]), p)))

    return f"{text(sides['w'])} vs {text(sides['b'])}"


def main():
    path = sys.argv[1]
    legion = sys.argv[2] if len(sys.argv) > 2 else "target/release/legion"
    games = records(open(path, encoding="utf-8").read())
    fifty = [g for g in games if "50-move" in g[0].get("Termination", "") or
             "50-move" in g[0].get("Reason", "")]
    endings = collections.Counter()
    for tags, moves in fifty:
        args = [legion, "apply"]
        if "FEN" in tags:
            args += ["--fen", tags["FEN"]]
        out = subprocess.run(args + moves, capture_output=True, text=True, check=True)
        endings[material(out.stdout.strip())] += 1
    print(f"{len(fifty)} of {len(games)} games drawn by the 50-move rule")
    for ending, n in endings.most_common():
        print(f"{n:4}  {ending}")


if __name__ == "__main__":
    main()

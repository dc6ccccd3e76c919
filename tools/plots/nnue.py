"""Draws docs/plots/nnue.png: the neural evaluation's training curve and
its strength against the linear evaluation, one point per generation.

The figures come from the raw results in tools/strength/results/:
    nnue-gen2-train.txt    the output of `legion train` (one line per epoch)
    nnue-gen1-100ms.txt    the 400-game matches at 100 ms a move against
    nnue-gen2-100ms.txt    `engine:eval=linear` (docs/STRENGTH.md)
then:
    python3 -m venv /tmp/plots && /tmp/plots/bin/pip install -r tools/plots/requirements.txt
    /tmp/plots/bin/python tools/plots/nnue.py
"""

import re
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
RESULTS = ROOT / "tools" / "strength" / "results"
OUT = ROOT / "docs" / "plots" / "nnue.png"
GENERATIONS = ["gen1", "gen2"]
BAR = 100  # the acceptance bar, Elo


def epochs(path):
    rows = []
    for line in path.read_text().splitlines():
        m = re.search(r"epoch +(\d+): training loss ([\d.]+), held-out loss ([\d.]+)", line)
        if m:
            rows.append((int(m[1]), float(m[2]), float(m[3])))
    return rows


def match(path):
    text = path.read_text()
    games = re.search(r"games (\d+): engine1 wins (\d+), draws (\d+), losses (\d+)", text)
    elo = re.search(r"elo ([+-][\d.]+) [±+-]+ ([\d.]+)", text)
    if not games or not elo:
        return None
    return float(elo[1]), float(elo[2]), int(games[1])


def main():
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.2))
    train = RESULTS / "nnue-gen2-train.txt"
    if train.exists():
        rows = epochs(train)
        left.plot([r[0] for r in rows], [r[1] for r in rows], "o-", label="training")
        left.plot([r[0] for r in rows], [r[2] for r in rows], "s-", label="held out")
        left.set_ylim(0, max(r[2] for r in rows[1:]) * 1.3)
        left.legend()
    left.set_title("gen2 training: loss by epoch")
    left.set_xlabel("epoch")
    left.set_ylabel("mean squared error of the expected score")
    left.grid(alpha=0.3)

    points = []
    for g in GENERATIONS:
        path = RESULTS / f"nnue-{g}-100ms.txt"
        if path.exists() and (m := match(path)):
            points.append((g, *m))
    xs = range(len(points))
    right.errorbar(
        list(xs),
        [p[1] for p in points],
        yerr=[p[2] for p in points],
        fmt="o",
        capsize=6,
        color="#4c72b0",
    )
    for x, p in zip(xs, points):
        right.annotate(f"{p[1]:+.1f} ± {p[2]:.1f}\n{p[3]} games", (x, p[1]), xytext=(10, -8),
                       textcoords="offset points")
    right.axhline(BAR, color="#dd8452", linestyle="--", label=f"issue's bar (+{BAR})")
    right.axhline(0, color="grey", linewidth=0.8)
    right.set_xticks(list(xs), [p[0] for p in points])
    right.set_xlim(-0.5, len(points) - 0.3)
    right.set_title("against the linear evaluation, 100 ms a move")
    right.set_ylabel("Elo (95% interval)")
    right.legend(loc="lower right")
    right.grid(alpha=0.3)
    fig.tight_layout()
    OUT.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(OUT, dpi=110)
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()

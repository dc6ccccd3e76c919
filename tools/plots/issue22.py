"""Draws docs/plots/issue22.png: issue 22's training curves (held-out loss
by epoch for each net, all measured on the held-out games of their data) and the Elo of each step,
measured by a match against the engine before it.

Every figure comes from the raw files in tools/strength/results/: the
`legion train` output (one line per epoch) and the match files (one line
per game, ending with the running wins-draws-losses). A match stopped by
hand has no summary line, so the Elo and its 95% interval are computed here
from the last line's counts, as `legion match` computes them (the score's
standard error from the three outcomes' frequencies).

    python3 -m venv /tmp/plots && /tmp/plots/bin/pip install -r tools/plots/requirements.txt
    /tmp/plots/bin/python tools/plots/issue22.py
"""

import math
import re
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
RESULTS = ROOT / "tools" / "strength" / "results"
OUT = ROOT / "docs" / "plots" / "issue22.png"

# (label, training output): gen4's 1.19 M positions, gen5's 2.36 M, then
# gen5's and gen6's together (5.01 M), then gen7's with them (6.70 M).
CURVES = [
    ("gen4 data: 128, clipped ReLU (gen4)", "nnue-gen4-train.txt"),
    ("gen4 data: 128, SCReLU", "nnue-gen4-screlu-train.txt"),
    ("gen4 data: 256, clipped ReLU", "nnue-gen4-h256-train.txt"),
    ("gen5 data: 128, clipped ReLU (gen5)", "nnue-gen5-train.txt"),
    ("gen5 data: 128, SCReLU", "nnue-gen5-screlu-train.txt"),
    ("gen5 data: 256, clipped ReLU", "nnue-gen5-h256-train.txt"),
    ("gen5+6 data: 128, clipped ReLU (gen6)", "nnue-gen6-train.txt"),
    ("gen5+6 data: 256, clipped ReLU", "nnue-gen6-h256-train.txt"),
    ("gen5+6+7 data: 128, clipped ReLU", "nnue-gen7-train.txt"),
    ("gen5+6+7 data: 256, clipped ReLU", "nnue-gen7-h256-train.txt"),
    ("gen5+6+7 data: 256, weight decay 0.01", "nnue-gen7-h256-wd01-train.txt"),
    ("gen5+6+7 data: 256, weight decay 0.1", "nnue-gen7-h256-wd10-train.txt"),
    ("gen5+6+7 data: 256, weight decay 0.3", "nnue-gen7-h256-wd30-train.txt"),
    ("gen5+6+7 data: 128, weight decay 0.1", "nnue-gen7-wd10-train.txt"),
    ("gen5+6+7 data: 128, weight decay 0.3", "nnue-gen7-wd30-train.txt"),
    ("gen5-8 data: 256, weight decay 0.3 (gen8)", "nnue-gen8-h256-wd30-train.txt"),
    ("gen9 data: 256, weight decay 0.3", "nnue-gen9-h256-wd30-train.txt"),
    ("gen9 data: 512, weight decay 0.3", "nnue-gen9-h512-wd30-train.txt"),
    ("gen9 data: 512, weight decay 0.6", "nnue-gen9-h512-wd60-train.txt"),
    ("gen9 10 M: 256, weight decay 0.3", "nnue-gen9b-h256-wd30-train.txt"),
    ("gen9 10 M: 512, weight decay 0.6", "nnue-gen9b-h512-wd60-train.txt"),
]

# The latest nets, in colours of their own.
OWN_COLOURS = {
    "gen5-8 data: 256, weight decay 0.3 (gen8)": "black",
    "gen9 data: 256, weight decay 0.3": "dimgrey",
    "gen9 data: 512, weight decay 0.3": "darkred",
    "gen9 data: 512, weight decay 0.6": "red",
    "gen9 10 M: 256, weight decay 0.3": "navy",
    "gen9 10 M: 512, weight decay 0.6": "darkorange",
}

# Runs stopped after fewer games say nothing and would stretch the axis.
MIN_GAMES = 50

# (label, match files whose games add up, kept: True, False, None for
# undecided, or "start" for the whole engine against the start)
# in the order they ran.
STEPS = [
    ("extension bound\n20k nodes", ["extension-bound-20k.txt", "extension-bound-20k-2.txt"], True),
    ("qsearch table\n20k nodes", ["sprt-qsearch-tt-20k.txt"], False),
    ("qsearch table\n100 ms", ["qsearch-tt-100ms.txt", "qsearch-tt-100ms-2.txt"], False),
    ("history malus\n20k", ["sprt-history-malus-20k.txt"], False),
    ("correction hist.\n20k", ["sprt-correction-history-20k.txt"], False),
    ("50-move damping\n20k", ["sprt-fifty-damping-20k.txt"], False),
    ("gen4 net\n20k nodes", ["gen4-vs-gen2-20k.txt"], True),
    ("gen4 net\n100 ms", ["gen4-vs-gen2-100ms.txt"], True),
    ("IIR\n20k", ["sprt-iir-20k.txt"], False),
    ("table score\nas estimate, 20k", ["sprt-tteval-20k.txt"], None),
    ("improving\n20k", ["sprt-improving-20k.txt"], False),
    ("histories kept\n20k", ["sprt-histories-kept-20k.txt"], None),
    ("table score\nas estimate, 100 ms", ["table-score-estimate-100ms.txt"], None),
    ("movetime whole\n100 ms", ["movetime-whole-100ms.txt"], None),
    ("gen5 net\n20k nodes", ["gen5-vs-gen4-20k.txt"], True),
    ("gen5 net\n100 ms", ["gen5-vs-gen4-100ms.txt"], True),
    ("gen6 net\n20k nodes", ["gen6-vs-gen5-20k.txt"], True),
    ("gen7 net\n20k nodes", ["gen7-vs-gen6-20k.txt"], False),
    ("histories kept\n20k, gen6", ["sprt-histories-kept-20k-gen6.txt"], None),
    ("histories kept\n100 ms, gen6", ["histories-kept-100ms.txt"], True),
    ("table score\nas estimate,\n20k, gen6", ["sprt-table-score-estimate-20k-gen6.txt"], None),
    ("continuation\nhist. 20k, gen6", ["sprt-continuation-history-20k-gen6.txt"], False),
    ("null move by\neval 20k, gen6", ["sprt-null-move-by-eval-20k-gen6.txt"], False),
    ("movetime whole\n100 ms, gen6", ["movetime-whole-100ms-gen6.txt"], True),
    ("256 net, decay\n0.3, 20k nodes", ["gen7-h256-wd30-vs-gen6-20k.txt"], True),
    ("256 net, decay\n0.3, 100 ms", ["gen7-h256-wd30-vs-gen6-100ms.txt"], True),
    ("gen8 net (10 M)\n20k nodes", ["gen8-h256-wd30-vs-gen7-20k.txt"], True),
    ("gen8 net (10 M)\n100 ms", ["gen8-h256-wd30-vs-gen7-100ms.txt"], True),
    ("losing captures\nskipped, 20k", ["sprt-bad-captures-20k.txt"], True),
    ("delta pruning\n20k", ["sprt-delta-pruning-20k.txt"], None),
    ("LMR by history\n20k", ["sprt-lmr-history-20k.txt"], None),
    ("razoring\n20k", ["sprt-razoring-20k.txt"], None),
    ("delta pruning on\nlosing captures, 20k", ["sprt-delta-pruning-on-bad-captures-20k.txt"], None),
    ("movetime whole +\nlosing captures,\n100 ms", ["now-vs-5f75b3b-100ms.txt"], None),
    ("singular ext.\n20k", ["sprt-singular-extensions-20k.txt"], False),
    ("qsearch table +\nprefetch, 100 ms", ["qsearch-table-prefetch-100ms.txt"], False),
    ("gen9 256 net\nvs gen8, 20k", ["sprt-gen9-h256-vs-gen8-20k.txt"], None),
    ("gen9 512 net\nvs gen8, 20k", ["sprt-gen9-h512-vs-gen8-20k.txt"], None),
    ("gen9 10 M 256 net\nvs gen8, 20k", ["sprt-gen9b-h256-vs-gen8-20k.txt"], None),
    ("gen9 10 M 512 net\nvs gen8, 20k", ["sprt-gen9b-h512-vs-gen8-20k.txt"], None),
    # Not a step: the whole engine against the start (item 4).
    ("main (bf0b7d4)\nvs start, 100 ms", ["now-vs-3d68c3f-100ms.txt"], "start"),
    ("main (gen6)\nvs start, 100 ms", ["now-vs-3d68c3f-100ms-gen6.txt"], "start"),
    ("main (256 net,\nhistories kept)\nvs start, 100 ms", ["now-vs-3d68c3f-100ms-g7.txt"], "start"),
    ("main (gen8)\nvs start, 100 ms", ["now-vs-3d68c3f-100ms-g8.txt"], "start"),
    ("main (gen8, movetime,\nlosing captures)\nvs start, 100 ms", ["now-vs-3d68c3f-100ms-g8bc.txt"], "start"),
]


def epochs(path):
    rows = []
    for line in path.read_text().splitlines():
        m = re.search(r"epoch +(\d+): training loss ([\d.]+), held-out loss ([\d.]+)", line)
        if m:
            rows.append((int(m[1]), float(m[2]), float(m[3])))
    return rows


def counts(path):
    """Wins, draws, losses of engine1 at the last game line of each run in
    the file (some files hold two runs, one after the other), added up."""
    done, last = [0, 0, 0], None
    for line in path.read_text().splitlines():
        m = re.search(r"\[(\d+)-(\d+)-(\d+)\]\s*$", line)
        if m:
            c = tuple(int(x) for x in m.groups())
            if last is not None and sum(c) <= sum(last):
                done = [a + b for a, b in zip(done, last)]
            last = c
    if last is None:
        return None
    return tuple(a + b for a, b in zip(done, last))


def elo(w, d, l):
    n = w + d + l
    s = (w + d / 2) / n
    var = (w * (1 - s) ** 2 + d * (0.5 - s) ** 2 + l * s**2) / n
    se = math.sqrt(var / n)

    def to_elo(x):
        x = min(max(x, 1e-6), 1 - 1e-6)
        return -400 * math.log10(1 / x - 1)

    return to_elo(s), (to_elo(s + 1.96 * se) - to_elo(s - 1.96 * se)) / 2, n


def main():
    # Two rows: the steps need the whole width for their labels.
    fig, (left, right) = plt.subplots(2, 1, figsize=(22, 12), gridspec_kw={"height_ratios": [1, 1.1]})
    # Held-out loss only (the training loss is in the files): with fifteen
    # nets, both lines of each hid one another. A colour map of twenty
    # keeps the nets apart; the gen5+6+7 nets are drawn thicker.
    colours = plt.get_cmap("tab20").colors
    for i, (label, name) in enumerate(CURVES):
        path = RESULTS / name
        if path.exists() and (rows := epochs(path)):
            latest = label.startswith(("gen5+6+7", "gen5-8", "gen9"))
            left.plot([r[0] for r in rows], [r[2] for r in rows], "o-" if latest else ".--",
                      markersize=4 if latest else 3, linewidth=2 if latest else 1,
                      color=OWN_COLOURS.get(label, colours[i % len(colours)]), label=label)
    left.set_ylim(0.00105, 0.00215)
    left.set_title("held-out loss by epoch: gen4 data (1.19 M positions), gen5 (2.36 M), gen5+6 (5.01 M), "
                   "gen5+6+7 (6.70 M) solid, gen5-8 (10.2 M, its held-out games include gen8's) black,\n"
                   "gen9 (6.06 M, its own held-out games: lower losses, not comparable with the others) grey (256), dark red and red (512, decay 0.3 and 0.6);\n"
                   "gen9 at 10.02 M (held-out games a superset of the 6.06 M ones) navy (256) and orange (512)")
    left.set_xlabel("epoch")
    left.set_ylabel("mean squared error of the expected score")
    left.legend(fontsize=8, ncol=3, loc="upper right")
    left.grid(alpha=0.3)

    xs, ys, errs, colours, names = [], [], [], [], []
    for label, files, kept in STEPS:
        total = [0, 0, 0]
        for f in files:
            path = RESULTS / f
            if path.exists() and (c := counts(path)):
                total = [a + b for a, b in zip(total, c)]
        if sum(total) == 0:
            continue
        e, ci, n = elo(*total)
        if n < MIN_GAMES:
            continue
        xs.append(len(xs))
        ys.append(e)
        errs.append(ci)
        colours.append({True: "#55a868", False: "#c44e52", None: "#8172b2", "start": "#222222"}[kept])
        names.append(f"{label}\n{n} games")
    for x, y, err, c in zip(xs, ys, errs, colours):
        right.errorbar([x], [y], yerr=[err], fmt="o", capsize=5, color=c)
        right.annotate(f"{y:+.0f}", (x, y), xytext=(6, 4), textcoords="offset points", fontsize=8)
    right.axhline(0, color="grey", linewidth=0.8)
    # Item 4's bar: the whole engine +150 against the start.
    right.axhline(150, color="black", linewidth=0.8, linestyle="--")
    right.text(0, 153, "issue 22's bar: +150 against the start", fontsize=8)
    right.set_xticks(xs, names, fontsize=7, rotation=45, ha="right", rotation_mode="anchor")
    right.set_title("each step against the engine before it (green kept, red not, purple undecided or awaiting 100 ms;\n"
                    "black: the whole engine against the issue's start, 3d68c3f; runs of 50 games or more)", fontsize=9)
    right.set_ylabel("Elo (95% interval)")
    right.grid(alpha=0.3)
    fig.tight_layout()
    OUT.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(OUT, dpi=100)
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()

"""Draws docs/plots/hosting.png from the soak and fairness figures.

The figures come from the server's soak tests:
    LEGION_FIGURES=tools/plots/data cargo test --release -p legion-server \
        --test soak -- --ignored --test-threads=1
then:
    python3 -m venv /tmp/plots && /tmp/plots/bin/pip install -r tools/plots/requirements.txt
    /tmp/plots/bin/python tools/plots/hosting.py
"""

import json
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tools" / "plots" / "data"
OUT = ROOT / "docs" / "plots" / "hosting.png"

# Measured before issue 7 (docs/BENCHMARKS.md): memory after 6,000 games
# and the engine's reply to another client during 20 engine games.
BEFORE_RSS_6000_GAMES_MB = 395
BEFORE_FAIRNESS_S = 7.8


def main():
    soak = json.loads((DATA / "soak.json").read_text())
    fair = json.loads((DATA / "fairness.json").read_text())
    fig, axes = plt.subplots(1, 3, figsize=(13, 4.2))

    ax = axes[0]
    phases = ["quiet", "flood", "sockets"]
    labels = ["quiet", "during a flood of\n40,000 requests", "with 1,000\nsockets open"]
    p50 = [soak["move_ms"][p][0] for p in phases]
    p99 = [soak["move_ms"][p][1] for p in phases]
    x = range(len(phases))
    ax.bar([i - 0.2 for i in x], p50, 0.4, label="p50", color="#4c78a8")
    ax.bar([i + 0.2 for i in x], p99, 0.4, label="p99", color="#f58518")
    ax.set_xticks(list(x), labels)
    ax.set_ylabel("ms")
    ax.set_title("A player's move (HTTP, committed to disk)")
    ax.legend()

    ax = axes[1]
    rss = soak["rss_mb"]
    names = ["start", "20,000 games\ncreated and read", "and 1,000\nsockets"]
    values = [rss["start"], rss["games"], rss["sockets"]]
    ax.bar(names, values, color="#54a24b")
    ax.axhline(rss["bound"], color="#e45756", linestyle="--", label=f"test bound {rss['bound']} MB")
    ax.axhline(BEFORE_RSS_6000_GAMES_MB, color="#9d755d", linestyle=":",
               label=f"before: {BEFORE_RSS_6000_GAMES_MB} MB after 6,000 games")
    ax.set_ylabel("resident memory, MB")
    ax.set_title("Memory of the whole test process")
    ax.legend(fontsize=8)

    ax = axes[2]
    names = ["alone", "another client\nhas 20 engine\ngames thinking", "the same,\nbefore issue 7"]
    values = [fair["alone_s"], fair["during_s"], BEFORE_FAIRNESS_S]
    ax.bar(names, values, color=["#4c78a8", "#4c78a8", "#9d755d"])
    ax.set_ylabel("seconds")
    ax.set_title("The engine's reply to one client")

    fig.suptitle("Legion server on 2 cores (AMD EPYC), loopback: "
                 "cargo test --release -p legion-server --test soak -- --ignored")
    fig.tight_layout()
    OUT.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(OUT, dpi=110)
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()

"""Draws docs/plots/cluster.png: SQLite on one server against PostgreSQL on
1, 2 and 3 servers, moves per second (flood) and the time until a move is
seen on another server (steady load).

The figures come from the cluster benchmark:
    LEGION_FIGURES=tools/plots/data scripts/with-postgres.sh \
        cargo test --release -p legion-cli --test cluster -- --ignored --nocapture benchmark
then:
    python3 -m venv /tmp/plots && /tmp/plots/bin/pip install -r tools/plots/requirements.txt
    /tmp/plots/bin/python tools/plots/cluster.py
"""

import json
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tools" / "plots" / "data" / "cluster.json"
OUT = ROOT / "docs" / "plots" / "cluster.png"


def main():
    rows = json.loads(DATA.read_text())
    labels = [f"{r['database']}\n{r['servers']} server{'s' if r['servers'] > 1 else ''}" for r in rows]
    colors = ["#4c72b0" if r["database"] == "SQLite" else "#dd8452" for r in rows]
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.2))

    flood = [r["flood"]["moves_per_s"] for r in rows]
    left.bar(labels, flood, color=colors)
    for i, v in enumerate(flood):
        left.text(i, v, f"{v:,.0f}", ha="center", va="bottom")
    left.set_title("Moves per second, 200 players as fast as they can")
    left.set_ylabel("acknowledged moves / s")

    x = range(len(rows))
    p50 = [r["steady"]["seen_p50_ms"] for r in rows]
    p99 = [r["steady"]["seen_p99_ms"] for r in rows]
    right.bar([i - 0.2 for i in x], p50, width=0.4, label="p50", color="#55a868")
    right.bar([i + 0.2 for i in x], p99, width=0.4, label="p99", color="#c44e52")
    for i in x:
        right.text(i + 0.2, p99[i], f"{p99[i]:.0f}", ha="center", va="bottom")
    right.axhline(100, color="grey", linestyle="--", linewidth=1)
    right.text(len(rows) - 0.5, 101, "100 ms", ha="right", va="bottom", color="grey")
    right.set_xticks(list(x))
    right.set_xticklabels(labels)
    right.set_title("A move seen by a watcher on another server\n(steady: ~200 moves/s)")
    right.set_ylabel("ms from the move sent")
    right.legend()

    fig.suptitle("One 2-core machine (AMD EPYC): servers, PostgreSQL and clients share it")
    fig.tight_layout()
    OUT.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(OUT, dpi=110)
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()

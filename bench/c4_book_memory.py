"""Memory and time to open the 12-ply Connect Four book: the package's reader against the memory map.

Each reader runs in a fresh process; the figure is the process's resident
memory after opening the book and looking up one 12-disc position, minus
before.

Usage:
    python bench/c4_book_memory.py
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

PROBE = """
import time
def rss():
    return int(open("/proc/self/statm").read().split()[1]) * 4096 / 2**20
before = rss(); start = time.perf_counter()
if {package!r}:
    from bitbully_databases import BitBullyDatabases
    book = BitBullyDatabases("12-ply-dist")
else:
    from stratbench.games.spin.c4_book import MappedDatabase
    book = MappedDatabase("12-ply-dist")
board = [[0] * 7 for _ in range(6)]
for row, column, disc in [(5, 3, 1), (5, 2, 2), (4, 3, 1), (5, 4, 2), (3, 3, 1), (2, 3, 2), (5, 1, 1), (4, 2, 2),
                          (5, 5, 1), (4, 4, 2), (4, 5, 1), (5, 6, 2)]:
    board[row][column] = disc
value = book.get_book_value(board)
print(f"{{time.perf_counter() - start:.2f}} {{rss() - before:.0f}} {{value}}")
"""


def main() -> None:
    print(f"{'reader':<26} {'open + lookup s':>15} {'RSS added MB':>12} {'value':>6}")
    for name, package in (("bitbully_databases (list)", True), ("stratbench c4_book (mmap)", False)):
        done = subprocess.run([sys.executable, "-c", PROBE.format(package=package)], capture_output=True, text=True,
                              check=True, env={"PYTHONPATH": str(ROOT / "plugin")})
        seconds, megabytes, value = done.stdout.split()
        print(f"{name:<26} {float(seconds):>15.2f} {float(megabytes):>12.0f} {value:>6}")


if __name__ == "__main__":
    main()

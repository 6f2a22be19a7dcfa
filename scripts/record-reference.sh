#!/usr/bin/env bash
# Re-records the committed reference cassettes from scratch.
#
# Reads cassettes/reference.json (models, scaffolds, matches, max_tokens, games),
# deletes the reference models' cassettes, and plays every suite's reference
# items against the live models. local/<name> models need
#   pip install -e '.[all,local]'
# Usage: scripts/record-reference.sh [extra pytest arguments, e.g. -k tictactoe]
set -euo pipefail
cd "$(dirname "$0")/.."

selection=$(python - <<'PY'
import json, re, sys
from pathlib import Path

profile = json.loads(Path("cassettes/reference.json").read_text())
names = [m.split("/", 1)[-1] for m in profile["models"]]
for name in names:
    safe = re.sub(r"[^A-Za-z0-9._+=,-]", "_", name)
    for path in Path("cassettes").rglob(f"*{safe}*.yaml"):
        path.unlink()
print(" or ".join(names))
PY
)

workers=${STRATBENCH_RECORD_WORKERS:-2}
export STRATBENCH_LOCAL_THREADS=${STRATBENCH_LOCAL_THREADS:-$(( $(nproc) / workers > 0 ? $(nproc) / workers : 1 ))}
start=$(date +%s)
pytest suites/ --stratbench-reference=record -k "$selection" -n "$workers" -p no:cacheprovider \
    --report-dir reports/reference "$@"
echo "recorded in $(( $(date +%s) - start )) s"
du -sh cassettes

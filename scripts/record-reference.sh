#!/usr/bin/env bash
# Re-records the committed reference cassettes from scratch.
#
# Reads cassettes/reference.json (models, scaffolds, matches, max_tokens, games)
# and plays every suite's reference items against the live models; each match's
# old cassette is replaced. With no arguments every reference cassette is
# deleted first, so none is left stale. local/<name> models need
#   pip install -e '.[all,local]'
# Usage: scripts/record-reference.sh [extra pytest arguments, e.g. -k tictactoe]
set -euo pipefail
cd "$(dirname "$0")/.."

selection=$(CLEAN=$# python - <<'PY'
import json, os
from pathlib import Path

from stratbench.llm.cassettes import safe_component

profile = json.loads(Path("cassettes/reference.json").read_text())
names = [m.split("/", 1)[-1] for m in profile["models"]]
if os.environ["CLEAN"] == "0":
    for name in names:
        for path in Path("cassettes").rglob(f"*{safe_component(name)}*.yaml"):
            path.unlink()
print(" or ".join(names))
PY
)

# A -k given here narrows the reference selection instead of replacing it.
args=()
while [ $# -gt 0 ]; do
    if [ "$1" = "-k" ] && [ $# -gt 1 ]; then
        selection="($selection) and ($2)"
        shift 2
    else
        args+=("$1")
        shift
    fi
done

workers=${STRATBENCH_RECORD_WORKERS:-2}
export STRATBENCH_LOCAL_THREADS=${STRATBENCH_LOCAL_THREADS:-$(( $(nproc) / workers > 0 ? $(nproc) / workers : 1 ))}
start=$(date +%s)
pytest suites/ --stratbench-reference=record -k "$selection" -n "$workers" -p no:cacheprovider \
    --report-dir reports/reference ${args[@]+"${args[@]}"}
echo "recorded in $(( $(date +%s) - start )) s"
du -sh cassettes

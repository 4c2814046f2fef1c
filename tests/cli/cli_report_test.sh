#!/usr/bin/env bash
# gpuplan-cli report end to end: the PDF of a preset holds every KPI the run reports (its
# description, and the counts' values) in the text poppler extracts, each page rasterises, a
# baseline on the same seeds adds deltas and their significance, page 1 counts the fleet and
# says what changed and each team's figures, and refusals leave an earlier file as it was.
# usage: cli_report_test.sh GPUPLAN_CLI PRESETS_DIR
set -u
cli=$(realpath -- "$1") presets=$(realpath -- "$2")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source "$(dirname "${BASH_SOURCE[0]}")/expect.sh"
export XDG_RUNTIME_DIR=$work/xdg && mkdir -m 700 "$work/xdg"

report() { "$cli" report --presets "$presets" "$@"; }
default=$presets/scenarios/default.json
# The same fleet with 30 % less work: a baseline that differs.
python3 -c 'import json, sys; s = json.load(open(sys.argv[1])); s["demandMultiplier"] = 0.7
s["name"] = "less demand"; json.dump(s, open(sys.argv[2], "w"))' "$default" "$work/less.json"

for tool in pdftotext pdftoppm pdfinfo; do
    command -v $tool >/dev/null || { echo "FAIL: $tool missing (poppler-utils; installers/dev.sh installs it)"; exit 1; }
done

expect 0 'usage: gpuplan-cli report SCENARIO' -- "$cli" report --help
expect 2 'no scenario given' -- report
expect 2 '--out REPORT.pdf is required' -- report "$default"
expect 2 'nonexistent-dir' -- report "$default" --out /nonexistent-dir/r.pdf
expect 2 '--threads goes with --replications' -- report "$default" --threads 2 --out "$work/r.pdf"
expect 2 'unknown option --outx' -- report "$default" --outx "$work/r.pdf"
# A refused scenario leaves an earlier report as it was.
echo kept >"$work/kept.pdf"
printf '{"format": "gpuplan-scenario"' >"$work/broken.json"
expect 2 'error' -- report "$work/broken.json" --out "$work/kept.pdf"
[ "$(cat "$work/kept.pdf")" = kept ] || fail "a refused report touched the earlier file"

# pages FILE: the page count pdfinfo reads; every page must rasterise to a PNG.
pages() { pdfinfo "$1" | awk '/^Pages:/ {print $2}'; }
rasterises() {
    local n; n=$(pages "$1")
    rm -rf "$work/png" && mkdir "$work/png"
    pdftoppm -png -r 30 "$1" "$work/png/p" 2>"$work/out" || { fail "pdftoppm failed on $1"; return; }
    local got; got=$(ls "$work/png" | wc -l)
    if [ "$n" -ge 3 ] && [ "$got" = "$n" ]; then echo "ok: $n pages rasterise"; else
        fail "$1: $got of $n pages rasterised"; fi
}

# One run: every KPI's description and each count's value in the text (whitespace removed, so
# a cell's wrapped lines read as one; the counts without thousands separators).
expect 0 'report written to .*: [0-9]+ pages' -- report "$default" --out "$work/one.pdf"
"$cli" run --presets "$presets" "$default" --out "$work/one.json" >/dev/null
pdftotext -raw "$work/one.pdf" - | tr -d ' \n\t' | tr -d , >"$work/one.txt"
if python3 - "$work/one.json" "$work/one.txt" >"$work/out" 2>&1 <<'PY'
import json, re, sys
r = json.load(open(sys.argv[1]))
# kpi_descriptions end with the unit ("… GPU-seconds. [fraction]"): the table says it in words.
descriptions = {k: re.sub(r"\s*\[[^]]*\]$", "", d) for k, d in r["kpi_descriptions"].items()}
text = open(sys.argv[2]).read()
squeeze = lambda s: "".join(s.split()).replace(",", "")
missing = [k for k, d in descriptions.items() if squeeze(d) not in text]
assert not missing, f"descriptions missing: {missing}"
counts = {k: v for k, v in r["kpis"].items() if k.startswith("jobs_") and float(v).is_integer()}
wrong = [k for k, v in counts.items() if str(int(v)) not in text]
assert counts and not wrong, f"values missing: {wrong}"
for needed in ["Planningreportonscenario", "Whyjobswaitedbylayer", "Assumptionsandsources",
               "PricebookLambdalistprices", "https://github.com/skypilot-org", "page1"]:
    assert needed.replace('"', "") in text.replace('"', "").replace("\u201c", ""), needed
print(f"{len(r['kpi_descriptions'])} KPIs")
PY
then echo "ok: every KPI in the one-run report ($(cat "$work/out"))"; else fail "one-run report text"; fi
rasterises "$work/one.pdf"

# Against a baseline on the same seeds: deltas, intervals and their significance.
expect 0 'report written to' -- \
    report "$default" --baseline "$work/less.json" --replications 3 --threads 2 --out "$work/cmp.pdf"
pdftotext -raw "$work/cmp.pdf" - >"$work/cmp.txt"
for needed in 'compared with less demand' '3 replications on seeds derived' 'significant' \
    '95 % interval of Δ' 'dashed: baseline'; do
    if tr '\n' ' ' <"$work/cmp.txt" | grep -qF -- "$needed"; then echo "ok: \"$needed\""; else
        cp "$work/cmp.txt" "$work/out"; fail "the comparison report lacks \"$needed\""; fi
done
rasterises "$work/cmp.pdf"
# Page 1 answers the meeting. Three racks more in pod-a (the name still says "256 × H100")
# for 30 % more demand, against the preset: 256 + 3 racks × 4 nodes × 8 GPUs = 352 GPUs in
# 4 + 3 + 4 = 11 racks; each team's row with its GPU-hours now and their delta in GPU-hours.
python3 -c 'import json, sys; s = json.load(open(sys.argv[1]))
s["topology"]["pods"][0]["racks"][0]["count"] += 3; s["demandMultiplier"] = 1.3
json.dump(s, open(sys.argv[2], "w"))' "$default" "$work/grown.json"
expect 0 'report written to' -- report "$work/grown.json" --baseline "$default" --out "$work/grown.pdf"
"$cli" run --presets "$presets" "$work/grown.json" --out "$work/grown-run.json" >/dev/null
pdftotext -raw -f 1 -l 1 "$work/grown.pdf" - | tr -d ' \n\t' >"$work/page1.txt"
if python3 - "$work/one.json" "$work/grown-run.json" "$work/page1.txt" >"$work/out" 2>&1 <<'PY'
import json, sys
base, now = (json.load(open(f)) for f in sys.argv[1:3])
page = open(sys.argv[3]).read()
squeeze = lambda s: "".join(s.split())
def signed(d, decimals, unit):
    magnitude = f"{abs(d):,.{decimals}f}"
    sign = "±" if float(magnitude.replace(",", "")) == 0 else ("+" if d > 0 else "−")
    return f"{sign}{magnitude}{unit}"
needed = ["352 GPUs: 44 × DGX H100 in 2 pods (11 racks)",
          "What changed: +3 racks in pod-a (+12 × DGX H100, +96 GPUs); demand × 1.3.",
          "256 GPUs: 32 × DGX H100 in 2 pods (8 racks)", "Cost over 7.0 d", "Per team"]
before = {t["name"]: t for t in base["by_team"]}
for team in now["by_team"]:
    was = before[team["name"]]
    needed += [team["name"], f"{team['gpu_hours']:,.0f} GPU-h", f"{was['gpu_hours']:,.0f} GPU-h",
               signed(team["gpu_hours"] - was["gpu_hours"], 0, " GPU-h"),
               f"{100 * team['allocation_share']:.1f} %",
               signed(100 * (team["allocation_share"] - was["allocation_share"]), 1, " pp")]
fleet = signed(now["kpis"]["gpu_hours_allocated"] - base["kpis"]["gpu_hours_allocated"], 0, " GPU-h")
assert "," in fleet, fleet  # thousands of GPU-hours more: "+16,128 GPU-h"
needed.append(fleet)
missing = [n for n in needed if squeeze(n) not in page]
assert not missing, f"page 1 lacks {missing}"
assert "AllKPIs" not in page, "the KPI dictionary is on page 1"
print(f"{len(now['by_team'])} teams; the fleet {fleet}")
PY
then echo "ok: page 1 of three racks more ($(cat "$work/out"))"; else fail "page 1: $(cat "$work/out")"; fi

# Written atomically: no temporary file is left beside it.
if ls "$work" | grep -v -E '^(xdg|png|less.json|kept.pdf|broken.json|one\.(pdf|json|txt)|cmp\.(pdf|txt)|grown(\.json|\.pdf|-run\.json)|page1\.txt|out)$'; then
    fail "files left behind"; fi

echo "$failures failure(s)"
[ "$failures" = 0 ]

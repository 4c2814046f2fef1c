#!/usr/bin/env bash
# gpuplan-cli import-kueue end to end: a good import writes a scenario `validate` accepts
# (exit 0); a bad manifest gives exit 2 with its file and line, and --out is not written.
# usage: cli_import_kueue_test.sh GPUPLAN_CLI PRESETS_DIR TEST_DATA_DIR
set -u
cli=$(realpath -- "$1") presets=$(realpath -- "$2") data=$(realpath -- "$3")
kueue=$data/kueue
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source "$(dirname "${BASH_SOURCE[0]}")/expect.sh"

import() { "$cli" import-kueue --presets "$presets" "$@"; }

expect 0 'usage: gpuplan-cli import-kueue FILE.yaml' -- "$cli" import-kueue --help
expect 2 'no manifest file given' -- import --into "$kueue/base.json" --out "$work/new.json"
expect 2 '--into SCENARIO is required' -- import "$kueue/cohort.yaml" --out "$work/new.json"
expect 2 '--flavor needs NAME=VALUE, got "h100"' -- \
    import "$kueue/cohort.yaml" --into "$kueue/base.json" --out "$work/new.json" --flavor h100

# The cohort: three quotas and cohorts, notes on stderr, a scenario validate accepts.
expect 0 '3 ClusterQueues, 2 Cohorts, 4 ResourceFlavors, 2 LocalQueues from 1 file → 3 quotas, 3 cohorts' \
    -- import "$kueue/cohort.yaml" --into "$kueue/base.json" --out "$work/new.json"
expect_text 0 'team research             cohort ml               nominal GPUs: h100-sxm 12, a100-40gb-sxm 4.5' \
    -- import "$kueue/cohort.yaml" --into "$kueue/base.json" --out "$work/new.json"
expect 0 '^note: skipped quotas of resources other than nvidia.com/gpu .*\[cpu, memory, pods\] \(7 places, first .*cohort.yaml: line 62\)' \
    -- import "$kueue/cohort.yaml" --into "$kueue/base.json" --out "$work/new.json"
expect 0 'teams added: serving, batch' -- import "$kueue/cohort.yaml" --into "$kueue/base.json" --out "$work/new.json"
expect 0 '^ok: .*new.json' -- "$cli" validate --presets "$presets" "$work/new.json"
if grep -q '"reclaimWithinCohort": "Any"' "$work/new.json" && grep -q '"name": "shared"' "$work/new.json"; then
    echo "ok: new.json holds the imported quotas"
else
    fail "new.json lacks the imported quotas"
fi

# Bad manifests: exit 2 with file and line; --out untouched (absent, or the old file as it was).
for bad in "mig-resource.yaml: line 9: \"nvidia.com/mig-1g.10gb\": MIG instances" \
           "bad-quantity.yaml: line 14: \"borrowingLimit\": \"4 GPUs\" is not a Kubernetes quantity" \
           "negative-quota.yaml: line 12: \"nominalQuota\" must not be negative" \
           "unmapped-flavor.yaml: line 7: ResourceFlavor \"b200\" selects" \
           "aliases.yaml: line 4: YAML aliases" \
           "shared-queue.yaml: line 5: ClusterQueue \"pool\" is used by LocalQueues in 2 namespaces" \
           "cohort-cycle.yaml: line 6: Cohort \"a\" is its own ancestor"; do
    file=${bad%%:*}
    expect_text 2 "$bad" -- import "$kueue/$file" --into "$kueue/base.json" --out "$work/bad.json"
done
if [ -e "$work/bad.json" ]; then fail "bad.json written after a failed import"; else echo "ok: bad.json not written"; fi
cp "$work/new.json" "$work/keep.json"
expect 2 'mig-resource.yaml: line 9' -- import "$kueue/mig-resource.yaml" --into "$kueue/base.json" --out "$work/keep.json"
if cmp -s "$work/new.json" "$work/keep.json"; then echo "ok: an existing --out is left as it was"; else fail "keep.json changed"; fi

# --flavor and --team make the refused files import.
expect 0 '→ 1 quotas' -- import "$kueue/unmapped-flavor.yaml" --into "$kueue/base.json" --out "$work/b200.json" --flavor b200=h100-sxm
expect 0 'team research .*h100-sxm 8' -- import "$kueue/shared-queue.yaml" --into "$kueue/base.json" --out "$work/pool.json" --team pool=research
expect 2 'error: --team: no ClusterQueue "nope" in the files' -- import "$kueue/shared-queue.yaml" --into "$kueue/base.json" --out "$work/pool.json" --team nope=research

# Hostile: a 100 MB file is refused by size before it is read; a missing file by name.
truncate -s 100M "$work/huge.yaml"
expect 2 'huge.yaml: .*larger than' -- timeout 10 "$cli" import-kueue "$work/huge.yaml" --into "$kueue/base.json" --out "$work/h.json"
expect 2 'missing.yaml: file not found' -- import "$work/missing.yaml" --into "$kueue/base.json" --out "$work/m.json"

# Empty values: an empty list or map is no limit, but a mistake; an empty name says
# it is empty; a CPU quota is bounded in cores, its bound written out without overflow.
expect 2 'borrowing-limit-empty.yaml: line 16: "borrowingLimit" must be a quantity \(like 8, 1.5, 500m or 64Gi\), got a list' \
    -- import "$kueue/borrowing-limit-empty.yaml" --into "$kueue/base.json" --out "$work/e.json"
expect 2 'lending-limit-empty.yaml: line 16: "lendingLimit" must be a quantity \(like 8, 1.5, 500m or 64Gi\), got a map' \
    -- import "$kueue/lending-limit-empty.yaml" --into "$kueue/base.json" --out "$work/e.json"
expect 2 'empty-name.yaml: line 5: "name" is empty' \
    -- import "$kueue/empty-name.yaml" --into "$kueue/base.json" --out "$work/e.json"
expect 2 'huge-cpu-quota.yaml: line 16: "nominalQuota": "1e30" is more than 1,000,000,000,000,000,000 cores$' \
    -- import "$kueue/huge-cpu-quota.yaml" --into "$kueue/base.json" --out "$work/e.json"
[ ! -e "$work/e.json" ] && echo "ok: no scenario written for a refused import" || fail "e.json written"

echo "$failures failure(s)"
[ "$failures" = 0 ]

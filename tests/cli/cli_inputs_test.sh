#!/usr/bin/env bash
# gpuplan-cli on hostile inputs: NUL bytes and text after the document, keys that would cut
# or garble a message, paths that are not regular files (devices, FIFOs, folders, sockets,
# dangling links), a bare scenario file name, and trace team names that break rows. Each
# must give exit 2 with the file, the place and what is wrong, quickly (timeout 10).
# usage: cli_inputs_test.sh GPUPLAN_CLI PRESETS_DIR TEST_DATA_DIR
set -u
# Absolute, as a check runs the CLI from another folder.
cli=$(realpath -- "$1") presets=$(realpath -- "$2") data=$(realpath -- "$3")
bad=$data/malformed
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source "$(dirname "${BASH_SOURCE[0]}")/expect.sh"

# NUL anywhere and text after the document are refused (a NUL that ended the JSON would drop
# the jobs after "]}\0" silently).
expect 2 'nul-after-document.json: line 61, column 2: a NUL byte' -- "$cli" validate "$bad/nul-after-document.json"
expect 2 'nul-before-jobs.json: line 51, column 4: a NUL byte' -- "$cli" validate "$bad/nul-before-jobs.json"
expect 2 'trailing-garbage.json: line 62, column 1: unexpected text after the JSON document' \
    -- "$cli" validate "$bad/trailing-garbage.json"
# Keys are printed escaped: a raw NUL would end the message ("error: FILE: /se"), and a raw
# 0xff byte is not copied into it.
expect 2 'key-with-nul.json: /se\\u0000ed\\u001b\[31m: unknown key "se\\u0000ed\\u001b\[31m"' \
    -- "$cli" validate "$bad/key-with-nul.json"
expect 2 'key-not-utf8.json: line 2, column [0-9]+: invalid JSON: .*caf\\xff' -- "$cli" validate "$bad/key-not-utf8.json"
# A duplicate key is reported at the duplicate, not at the key before it ("horizonS").
expect 2 'duplicate-key.json: /seed: duplicate key "seed"' -- "$cli" validate "$bad/duplicate-key.json"

# Paths that are not regular files, refused before reading: /dev/zero would be read without
# end and a FIFO would block forever; a folder, a socket and a dangling link say what they are.
mkfifo "$work/fifo.json"
python3 -c 'import socket, sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])' "$work/socket.json"
ln -s "$work/gone.json" "$work/dangling.json"
ln -s "$presets/scenarios/default.json" "$work/link.json"
expect 2 '/dev/zero: is a character device, not a regular file' -- timeout 10 "$cli" validate /dev/zero
expect 2 'fifo.json: is a named pipe \(FIFO\), not a regular file' -- timeout 10 "$cli" validate "$work/fifo.json"
expect 2 'socket.json: is a socket, not a regular file' -- timeout 10 "$cli" validate "$work/socket.json"
expect 2 "$work: is a folder, not a regular file" -- timeout 10 "$cli" validate "$work"
expect 2 'missing.json: file not found' -- timeout 10 "$cli" validate "$work/missing.json"
expect 2 'dangling.json: is a symbolic link to ".*gone.json", which does not exist' \
    -- timeout 10 "$cli" validate "$work/dangling.json"
expect 0 '^ok: .*link.json' -- timeout 10 "$cli" validate "$work/link.json"
expect 2 '/dev/zero: is a character device, not a regular file' \
    -- timeout 10 "$cli" validate "$presets/scenarios/default.json" --catalog /dev/zero
expect 2 'fifo.json: is a named pipe \(FIFO\)' \
    -- timeout 10 "$cli" validate "$presets/scenarios/default.json" --catalog "$work/fifo.json"

# Trace paths: a folder is called a folder, not "not found"; a FIFO must not block.
mkdir -p "$work/traces/folder.csv"
mkfifo "$work/traces/fifo.csv"
for trace in folder fifo; do
    sed '$ s/}$/, "traces": [{"format": "philly", "file": "'$trace'.csv"}]}/' \
        "$data/valid-minimal.json" >"$work/traces/$trace.json"
done
expect 2 'traces/folder.csv: is a folder, not a regular file' -- timeout 10 "$cli" validate "$work/traces/folder.json"
expect 2 'traces/fifo.csv: is a named pipe \(FIFO\), not a regular file' \
    -- timeout 10 "$cli" validate "$work/traces/fifo.json"

# A bare scenario file name finds a trace next to it, as ./scenario.json does (the folder of
# "scenario.json" is ".", not "").
mkdir -p "$work/bare"
printf 'timestamp,duration,num_gpus,gpu_time,cluster\n2017-10-09 07:01:55,66.0,1,66.0,vc1\n' >"$work/bare/trace.csv"
sed '$ s/}$/, "traces": [{"format": "philly", "file": "trace.csv"}]}/' \
    "$data/valid-minimal.json" >"$work/bare/scenario.json"
expect 0 '^ok: scenario.json .* 1 traces' -- env -C "$work/bare" "$cli" validate scenario.json
expect 0 '^ok: ./scenario.json .* 1 traces' -- env -C "$work/bare" "$cli" validate ./scenario.json

# Trace team names: control characters, bytes that are not UTF-8 and quoted fields (whose
# line break splits the row) are refused with the trace file, the line and the reason.
expect 2 'trace-team-control-character.csv: line 3: cluster id "vc\\u001b\[2J" holds a control character' \
    -- "$cli" validate "$bad/trace-team-control-character.json"
expect 2 'trace-team-not-utf8.csv: line 3: cluster id "vc\\xffx" is not UTF-8 text' \
    -- "$cli" validate "$bad/trace-team-not-utf8.json"
expect 2 'trace-team-quoted-line-break.csv: line 3: cluster id ""vc" holds a quote' \
    -- "$cli" validate "$bad/trace-team-quoted-line-break.json"
# A trace's teamPrefix starts every team name it makes: the same rule, at its pointer.
expect 2 '/traces/0/teamPrefix: teamPrefix "vc\\u001b\[2J-" holds a control character' \
    -- "$cli" validate "$bad/trace-team-prefix-control-character.json"

# Paths named by a key: a NUL is refused at the key (the part before it, a real trace, is not
# read, and the message is not cut at the NUL); a folder, a device or a missing file names the
# file and the key that named it.
expect 2 'trace-path-nul.json: /traces/0/file: the trace file "../traces/one-job.csv\\u0000.json" holds a NUL byte' \
    -- "$cli" validate "$bad/trace-path-nul.json"
expect 2 'trace-path-folder.json: /traces/0/file: /: is a folder, not a regular file' \
    -- timeout 10 "$cli" validate "$bad/trace-path-folder.json"
expect 2 'trace-path-device.json: /traces/0/file: /dev/null: is a character device, not a regular file' \
    -- timeout 10 "$cli" validate "$bad/trace-path-device.json"
for name in nul folder device missing; do
    mkdir -p "$work/lesson-$name"
    cp "$data/lessons/scenario-$name.json" "$work/lesson-$name/3.3.json"
done
expect 2 'lesson-nul/3.3.json: /scenario: the lesson.s scenario file "../valid-minimal.json\\u0000.txt" holds a NUL byte' \
    -- "$cli" lesson list --lessons "$work/lesson-nul" --presets "$presets"
expect 2 'lesson-folder/3.3.json: /scenario: /: is a folder, not a regular file' \
    -- timeout 10 "$cli" lesson run 3.3 --lessons "$work/lesson-folder" --presets "$presets"
expect 2 'lesson-device/3.3.json: /scenario: /dev/null: is a character device' \
    -- timeout 10 "$cli" lesson run 3.3 --lessons "$work/lesson-device" --presets "$presets"
expect 2 'lesson-missing/3.3.json: /scenario: .*lesson-missing/no-such-scenario.json: file not found' \
    -- timeout 10 "$cli" lesson run 3.3 --lessons "$work/lesson-missing" --presets "$presets"
expect 2 'sweeps/scenario-nul.json: /scenario: the sweep.s scenario file "../valid-minimal.json\\u0000.txt" holds a NUL byte' \
    -- "$cli" sweep "$data/sweeps/scenario-nul.json" --out "$work/sweep-out" --presets "$presets"
expect 2 'sweeps/scenario-folder.json: /scenario: /: is a folder, not a regular file' \
    -- timeout 10 "$cli" sweep "$data/sweeps/scenario-folder.json" --out "$work/sweep-out" --presets "$presets"
expect 2 'sweeps/scenario-device.json: /scenario: /dev/null: is a character device' \
    -- timeout 10 "$cli" sweep "$data/sweeps/scenario-device.json" --out "$work/sweep-out" --presets "$presets"
expect 2 'sweeps/scenario-missing.json: /scenario: .*sweeps/no-such-scenario.json: file not found' \
    -- timeout 10 "$cli" sweep "$data/sweeps/scenario-missing.json" --out "$work/sweep-out" --presets "$presets"
[ ! -e "$work/sweep-out/runs.csv" ] && echo "ok: no runs written" || fail "a refused sweep wrote runs.csv"

# Free text printed as it is: a NUL ended a lesson's title (and an escape cleared the
# terminal); a scenario's name the same.
mkdir -p "$work/lesson-title"
cp "$data/lessons/title-control-characters.json" "$work/lesson-title/3.3.json"
expect 2 'lesson-title/3.3.json: /title: the text holds a NUL byte' \
    -- "$cli" lesson list --lessons "$work/lesson-title" --presets "$presets"
expect 2 'name-with-nul.json: /name: the text holds a NUL byte' -- "$cli" validate "$bad/name-with-nul.json"

# Nonsense refused: a day February never has, an empty fill order, half a NIC.
expect 2 'pricing-day-not-in-month.json: /pricing/asOf: "2026-02-31" is not a day of the calendar \(2026-02 has 28 days\)' \
    -- "$cli" validate "$bad/pricing-day-not-in-month.json"
expect 2 'fill-order-empty.json: /buyingMix/fillOrder: an empty fill order' -- "$cli" validate "$bad/fill-order-empty.json"
expect 2 'node-type-nic-count-fraction.json: /nodeTypes/0/nicCount: expected an integer, got 1.5' \
    -- "$cli" validate "$bad/node-type-nic-count-fraction.json"
expect 2 'asof-day-not-in-month.json: /asOf: "2026-02-31" is not a day of the calendar' \
    -- "$cli" validate "$presets/scenarios/default.json" --pricebook "$data/pricebooks/asof-day-not-in-month.json"

echo "$failures failure(s)"
[ "$failures" = 0 ]

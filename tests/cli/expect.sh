# Shared by the gpuplan-cli test scripts (sourced after they set $work): run a command,
# check its exit code and output, count failures.
failures=0

fail() {
    echo "FAIL: $*"
    sed 's/^/    /' "$work/out" | head -20
    failures=$((failures + 1))
}

expect() {  # expect CODE PATTERN -- command...: PATTERN is an extended regular expression
    local code=$1 pattern=$2
    shift 3
    "$@" >"$work/out" 2>&1
    local got=$?
    if [ "$got" != "$code" ] || ! grep -qE -- "$pattern" "$work/out"; then
        fail "$* -> exit $got (want $code and /$pattern/)"
    else
        echo "ok: $*"
    fi
}

expect_text() {  # expect_text CODE TEXT -- command...: TEXT taken literally, not as a pattern
    local code=$1 text=$2
    shift 3
    "$@" >"$work/out" 2>&1
    local got=$?
    if [ "$got" != "$code" ] || ! grep -qF -- "$text" "$work/out"; then
        fail "$* -> exit $got (want $code and \"$text\")"
    else
        echo "ok: $*"
    fi
}

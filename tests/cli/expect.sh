# Shared by the gpuplan-cli test scripts (sourced after they set $work): run a command,
# check its exit code and output, count failures.
failures=0

fail() {
    echo "FAIL: $*"
    sed 's/^/    /' "$work/out" | head -20
    failures=$((failures + 1))
}

# expect CODE PATTERN -- command...: PATTERN is an extended regular expression;
# expect_text CODE TEXT -- command...: TEXT taken literally.
expect() { expect_with -E "$@"; }
expect_text() { expect_with -F "$@"; }

expect_with() {  # expect_with GREP_MODE CODE WANTED -- command...
    local mode=$1 code=$2 wanted=$3
    shift 4
    "$@" >"$work/out" 2>&1
    local got=$?
    if [ "$got" != "$code" ] || ! grep -q "$mode" -- "$wanted" "$work/out"; then
        fail "$* -> exit $got (want $code and \"$wanted\")"
    else
        echo "ok: $*"
    fi
}

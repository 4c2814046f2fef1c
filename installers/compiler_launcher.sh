#!/usr/bin/env bash
# The compiler launcher dev.sh gives CMake: ccache, and after a clang precompiled header is
# built, a checksum of what it was built from beside it (<pch>.sum, which ccache's
# pch_external_checksum hashes instead of the PCH). The PCH itself holds the checkout's
# absolute paths, so without the checksum a cache filled by one clone misses every test file
# compiled against a PCH in another; the checksum holds the contents of the headers the PCH
# was built from (from its dependency file), not their paths.
#
#   compiler_launcher.sh COMPILER ARGS...
set -euo pipefail

ccache "$@"

output=""
depfile=""
previous=""
for arg in "$@"; do
    case "$previous" in
        -o) output=$arg ;;
        -MF) depfile=$arg ;;
    esac
    previous=$arg
done
case "$output" in
    *.pch) ;;
    *) exit 0 ;;
esac
if [ -z "$depfile" ] || [ ! -f "$depfile" ]; then
    rm -f "$output.sum"  # no checksum: ccache hashes the PCH itself
    exit 0
fi
# The dependency file lists the PCH, then every file it read. CMake's generated cmake_pch.hxx
# and .cxx name the headers by absolute path: they are left out (the headers' contents, in
# order, say the same), as is the output.
deps=$(sed -e 's/\\$//' -e 's/^[^:]*://' "$depfile" | tr ' ' '\n' | grep -v -e '^$' -e '/cmake_pch\.hxx')
# shellcheck disable=SC2086
{ printf '%s\n' "$@" | grep -v -e '^/' -e '^-I' -e '^-isystem' -e '^-MT' -e '^-MF' -e '^-o' \
      -e '^-DQT_TESTCASE' -e '\.pch$' -e '\.d$' -e '\.hxx$' -e '\.cxx$'
  cat $deps
} | sha256sum >"$output.sum.tmp"
mv "$output.sum.tmp" "$output.sum"

#!/usr/bin/env bash
# Builds the Debian package, unpacks it, and runs gpuplan-cli from it against the presets it
# ships. usage: package_test.sh BUILD_DIR
set -euo pipefail
build=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$build" && cpack -G DEB -B "$work/out" >/dev/null)
deb=$(ls "$work"/out/*.deb)
echo "package: $(basename "$deb")"
info=$(dpkg-deb --info "$deb")
grep -E "Package|Version|Depends" <<<"$info" | sed 's/^/  /'
dpkg-deb -x "$deb" "$work/root"
for f in usr/bin/gpuplan usr/bin/gpuplan-cli usr/share/applications/gpuplan.desktop \
         usr/share/icons/hicolor/scalable/apps/gpuplan.svg usr/share/gpuplan/presets/catalog/catalog.json \
         usr/share/gpuplan/presets/scenarios/default.json; do
    [ -e "$work/root/$f" ] || { echo "FAIL: the package lacks $f"; exit 1; }
done
grep -q "Depends:.*libqt6" <<<"$info" || { echo "FAIL: no Qt dependencies recorded"; exit 1; }
# gpuplan-cli import-kueue links yaml-cpp (Debian's shared library).
grep -q "Depends:.*libyaml-cpp" <<<"$info" || { echo "FAIL: no yaml-cpp dependency recorded"; exit 1; }
"$work/root/usr/bin/gpuplan-cli" --version
# The unpacked CLI finds the presets it ships (next to itself, not in the checkout).
GPUPLAN_PRESETS_DIR= "$work/root/usr/bin/gpuplan-cli" validate "$work/root/usr/share/gpuplan/presets/scenarios/default.json"

#!/usr/bin/env bash
# gpuplan --screenshot under Xvfb must give a PNG of the main window with real content.
# usage: screenshot_test.sh GPUPLAN OUT.png
set -euo pipefail
app=$1 out=$2
rm -f "$out"
# On the X server xvfb-run starts, whatever platform the caller's environment names.
QT_QPA_PLATFORM=xcb xvfb-run -a -s "-screen 0 1600x1000x24" "$app" --screenshot "$out" --size 1600x1000
[ -s "$out" ] || { echo "FAIL: no screenshot written"; exit 1; }
read -r w h colors < <(identify -format "%w %h %k\n" "$out")
echo "screenshot $out: ${w}x${h}, $colors colours"
[ "$w" -ge 1400 ] && [ "$h" -ge 900 ] || { echo "FAIL: window too small"; exit 1; }
# Team colours, charts' lines and text: a real window has hundreds of colours; a blank or
# placeholder one has a handful.
[ "$colors" -ge 300 ] || { echo "FAIL: the screenshot looks empty ($colors colours)"; exit 1; }
# The fleet (left half) and the charts (right third) both hold content.
for crop in 700x500+250+150 450x550+1150+60; do
    c=$(convert "$out" -crop "$crop" +repage -format "%k" info:)
    echo "region $crop: $c colours"
    [ "$c" -ge 20 ] || { echo "FAIL: region $crop is nearly blank"; exit 1; }
done

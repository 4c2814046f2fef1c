#!/usr/bin/env bash
# gpuplan developer setup on Debian 12: installs what is missing (apt), configures, builds,
# then runs the main program or every test.
#
#   installers/dev.sh run    build (release) and start gpuplan on the default scenario
#   installers/dev.sh test   check the C++ format, build everything under AddressSanitizer +
#                            UndefinedBehaviorSanitizer (clang; build/asan), run every test there
#                            (the OpenGL timeline's and the screenshot's under xvfb-run, the
#                            other application tests offscreen), then a short libFuzzer run of
#                            each fuzz target (tests/fuzz). The optimised build of `run`
#                            (build/release, GCC) is not needed for the tests and is not built:
#                            `cmake --preset release && cmake --build --preset release && ctest
#                            --preset release` runs the same tests there.
#
# Without a display (no $DISPLAY or $WAYLAND_DISPLAY), "run" starts gpuplan under Xvfb,
# saves a screenshot to build/release/gpuplan.png and prints the engine's KPI table.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"

# Debian packages (slurm-wlm, slurm-client and munge give
# tests/cli/slurm_sweep_test.sh a real one-node Slurm, python3-yaml reads the Kubernetes
# manifests in tests/cli/k8s_sweep_manifest_test.sh). Never vendored, never downloaded
# at build or run time.
packages=(
    g++ make cmake ninja-build pkg-config
    nlohmann-json3-dev catch2 libyaml-cpp-dev
    qt6-base-dev libqt6opengl6-dev qt6-charts-dev qt6-svg-dev libimgui-dev libstb-dev
    xvfb xauth libgl1-mesa-dri libglx-mesa0 fonts-dejavu-core imagemagick
    dpkg-dev file clang-format
    clang-14 libclang-rt-14-dev
    slurm-wlm slurm-client munge python3-yaml
    poppler-utils ccache lld
)

install_missing() {
    local missing=()
    for p in "${packages[@]}"; do
        if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
            missing+=("$p")
        fi
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    echo "dev.sh: installing ${missing[*]}"
    local sudo=()
    [ "$(id -u)" -ne 0 ] && sudo=(sudo)
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
}

# The house format (.clang-format) on every C++ file of the project; run `clang-format -i` on
# what it names.
check_format() {
    local files=()
    mapfile -t files < <(find engine app widgets tests -type f \( -name '*.cpp' -o -name '*.hpp' -o -name '*.h' \) | sort)
    if ! clang-format --dry-run --Werror "${files[@]}"; then
        echo "dev.sh: files above are not clang-formatted; run clang-format -i on them" >&2
        return 1
    fi
    echo "dev.sh: format check passed (${#files[@]} files)"
}

# Runs a step and says how long it took; `test` ends with the list, so a slow step shows in CI's
# log tail.
step_times=()
timed() {  # timed LABEL COMMAND...
    local label=$1 start=$SECONDS
    shift
    "$@"
    step_times+=("$label $((SECONDS - start)) s")
    echo "dev.sh: $label took $((SECONDS - start)) s"
}

build() {  # build PRESET
    # A compiler cache makes a rebuild of unchanged files nearly free (a second `test` of the
    # same tree, or a branch switched back); it never changes what is built. The launcher is
    # ccache plus a checksum beside each precompiled header (see the script).
    export CMAKE_CXX_COMPILER_LAUNCHER="${CMAKE_CXX_COMPILER_LAUNCHER:-$root/installers/compiler_launcher.sh}"
    # Paths relative to the clone and the build folder left out of the hash, so a cache
    # filled by one clone (or CI checkout) serves another; debug info then names the first.
    export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$root}"
    export CCACHE_NOHASHDIR="${CCACHE_NOHASHDIR:-1}"
    # Left out of the hash for the same reason: Qt's test library puts the checkout's folders
    # in every test file's compile line (for QFINDTESTDATA, which no test here uses), and the
    # precompiled header's generated include names its build folder (its contents are hashed).
    export CCACHE_IGNOREOPTIONS="${CCACHE_IGNOREOPTIONS:--DQT_TESTCASE_BUILDDIR=* -DQT_TESTCASE_SOURCEDIR=* $root/build/*}"
    # The test executables' precompiled headers (clang, -fno-pch-timestamp): ccache reuses what
    # was compiled against one only with this sloppiness, and with the external checksum it
    # hashes the launcher's checksum of a PCH's headers instead of the PCH, which holds paths.
    export CCACHE_SLOPPINESS="${CCACHE_SLOPPINESS:-pch_defines,time_macros,include_file_mtime,include_file_ctime}"
    export CCACHE_PCH_EXTSUM="${CCACHE_PCH_EXTSUM:-true}"
    cmake --preset "$1" >/dev/null
    cmake --build --preset "$1"
}

case "${1:-}" in
    run)
        install_missing
        build release
        if [ -n "${DISPLAY:-}" ] || [ -n "${WAYLAND_DISPLAY:-}" ]; then
            exec build/release/app/gui/gpuplan
        fi
        echo "dev.sh: no display; running gpuplan under Xvfb for a screenshot instead"
        xvfb-run -a -s "-screen 0 1600x1000x24" build/release/app/gui/gpuplan --screenshot build/release/gpuplan.png
        exec build/release/app/cli/gpuplan-cli run presets/scenarios/default.json
        ;;
    test)
        timed "install" install_missing
        timed "format check" check_format
        # Every test runs in the sanitized build: one compile of the project instead of two.
        timed "sanitizer build" build asan
        timed "sanitizer tests" ctest --preset asan
        # The fuzz targets (built with the sanitizer build) for a fixed number of runs each,
        # about 15 s per target, as many at once as there are cores.
        timed "fuzz run" tests/fuzz/run_fuzzers.sh
        echo "dev.sh: all tests passed in $SECONDS s (${step_times[*]/%/;})"
        ;;
    *)
        echo "usage: installers/dev.sh run|test" >&2
        exit 2
        ;;
esac

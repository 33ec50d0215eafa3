#!/usr/bin/env bash
# Sets up the `tensorflow` backend: @tensorflow/tfjs-node 4.22.0 on TensorFlow 2.21.0's C library,
# taken from the tensorflow-cpu wheel, because tfjs-node's own install script downloads
# libtensorflow 2.9.1 from a host outside the package registries. In the project it is run from
# (this repository, or a project that installed gpu-transfer-perf), any time after `npm ci`:
#   - pip fetches the wheel from ITS CONFIGURED INDEX (PyPI, or whatever `pip config list` names);
#     no host or path of an index is written here.
#   - Only the C API's two libraries (strip --strip-unneeded) and the headers tfjs-node's binding
#     includes (their closure, found by g++ -M) are kept, in a cache folder keyed by version
#     OUTSIDE node_modules: ${XDG_CACHE_HOME:-~/.cache}/gpu-transfer-perf/tensorflow-2.21.0/.
#     The wheel itself (274 MB) is deleted once they are out of it.
#   - @tensorflow/tfjs-node@4.22.0 is installed with `npm install --no-save --ignore-scripts`: the
#     repository's package.json and package-lock.json stay as they are, and nothing is pruned.
#   - Its deps/ gets symlinks into the cache (the names binding.gyp links and install.js checks),
#     and its addon is built from source against them with node-gyp and Node's own headers; the
#     built addon is kept in the cache too.
# After `npm ci` (which empties node_modules) a second run reinstalls the package and copies the
# cached addon: seconds. Where pip, its index, npm's registry or a compiler is missing it prints
# one line saying what and exits 0 (the backend is optional); with GTP_REQUIRE_TENSORFLOW=1 (CI)
# it exits 1 instead. Safe to run twice, and two runs at once wait for each other.
set -euo pipefail

TF_VERSION=2.21.0
TFJS_NODE_VERSION=4.22.0
# The one wheel used on every machine, whatever Python is installed: the libraries do not depend
# on Python's version, and pinning the tags makes pip pick the same file everywhere.
WHEEL_TAGS=(--only-binary=:all: --platform manylinux_2_27_x86_64 --implementation cp --python-version 3.11 --abi cp311)

# The project it sets up: the one it is run from, found as npm finds it (`npm prefix`: the nearest
# folder up with a package.json): this repository (`npm run setup:tensorflow`), or a user's project
# running the copy the package ships (`bash node_modules/gpu-transfer-perf/scripts/setup-tensorflow.sh`).
ROOT=$(npm prefix 2>/dev/null || pwd)
cd "$ROOT"
CACHE_ROOT="${XDG_CACHE_HOME:-$HOME/.cache}/gpu-transfer-perf"
CACHE="$CACHE_ROOT/tensorflow-$TF_VERSION"
PKG="$ROOT/node_modules/@tensorflow/tfjs-node"
LOG=$(mktemp -t setup-tensorflow.XXXXXX.log)
WORK=""
cleanup() {
  rm -f "$LOG"
  if [ -n "$WORK" ]; then rm -rf "$WORK"; fi
}
trap cleanup EXIT

say() { echo "setup-tensorflow: $*"; }
# One line saying what is missing; exit 0 for a user (tensorflow is optional), 1 under CI's flag.
missing() {
  if [ "${GTP_REQUIRE_TENSORFLOW:-}" = 1 ]; then
    echo "setup-tensorflow: FAILED (GTP_REQUIRE_TENSORFLOW=1): $*" >&2
    exit 1
  fi
  say "skipped: $* (the tensorflow backend is optional; everything else runs)"
  exit 0
}
# The last line of the log that says something, for a one-line reason.
last_error() { grep -E 'ERROR|ERR!|error|Error' "$LOG" | tail -1 | sed 's/^[[:space:]]*//' | cut -c1-240 || true; }

if [ "$(uname -s)-$(uname -m)" != Linux-x86_64 ]; then
  missing "tensorflow-cpu's wheel is for Linux x86-64; this is $(uname -s) $(uname -m)"
fi
if [ ! -d node_modules/@tensorflow/tfjs-core ]; then
  missing "$ROOT/node_modules has no @tensorflow/tfjs-core (the project npm finds from here): run it from your project after \`npm ci\`"
fi

mkdir -p "$CACHE_ROOT"
if command -v flock >/dev/null; then
  exec 9>"$CACHE_ROOT/.lock"
  flock 9
fi

# 0. What is missing, found before anything is installed: pip and g++ when the cache is not
#    made yet (the headers' closure needs g++ too), g++, make and python3 (node-gyp) when the
#    addon is not built yet.
napi=$(node -p "Math.min(8, Number(process.versions.napi))")
addon="$PKG/lib/napi-v$napi/tfjs_binding.node"
cached_addon="$CACHE/addon/tfjs-node-$TFJS_NODE_VERSION-napi-v$napi/tfjs_binding.node"
PYTHON=""
if [ ! -f "$CACHE/MANIFEST" ]; then
  for candidate in python3 python; do
    if command -v "$candidate" >/dev/null && "$candidate" -m pip --version >/dev/null 2>&1; then
      PYTHON=$candidate
      break
    fi
  done
  [ -n "$PYTHON" ] || missing "no pip (python3 -m pip) to fetch tensorflow-cpu==$TF_VERSION"
fi
if [ ! -f "$CACHE/MANIFEST" ] || [ ! -f "$cached_addon" ]; then
  command -v g++ >/dev/null || missing "no C++ compiler (g++) to build tfjs-node's addon"
fi
if [ ! -f "$cached_addon" ]; then
  command -v make >/dev/null || missing "no make to build tfjs-node's addon"
  command -v python3 >/dev/null || missing "no python3 for node-gyp to build tfjs-node's addon"
fi

# 1. The package, without its install script (which would download libtensorflow 2.9.1).
installed_version() { node -p "require('$PKG/package.json').version" 2>/dev/null || true; }
if [ "$(installed_version)" != "$TFJS_NODE_VERSION" ] || ! node -e "require.resolve('@mapbox/node-pre-gyp', { paths: ['$PKG'] })" 2>/dev/null; then
  if ! npm install --no-save --ignore-scripts --no-audit --no-fund --prefer-offline --loglevel=error \
    "@tensorflow/tfjs-node@$TFJS_NODE_VERSION" >"$LOG" 2>&1; then
    missing "npm could not install @tensorflow/tfjs-node@$TFJS_NODE_VERSION ($(last_error))"
  fi
  say "installed @tensorflow/tfjs-node@$TFJS_NODE_VERSION (not saved: package.json and package-lock.json unchanged)"
fi

# 2. The cache: the two libraries and the header closure, made once per TensorFlow version.
#    Built in a temporary folder beside it and renamed into place, so a cache folder is whole.
if [ ! -f "$CACHE/MANIFEST" ]; then
  rm -rf "$CACHE_ROOT"/.tensorflow-"$TF_VERSION".* # an interrupted run's (the lock is ours)
  WORK=$(mktemp -d "$CACHE_ROOT/.tensorflow-$TF_VERSION.XXXXXX")
  started=$SECONDS
  if ! "$PYTHON" -m pip download --no-deps --disable-pip-version-check --progress-bar off "${WHEEL_TAGS[@]}" \
    "tensorflow-cpu==$TF_VERSION" -d "$WORK/wheel" >"$LOG" 2>&1; then
    missing "pip could not fetch tensorflow-cpu==$TF_VERSION from its configured index ($(last_error))"
  fi
  wheel=$(ls "$WORK"/wheel/tensorflow_cpu-"$TF_VERSION"-*.whl)
  say "fetched $(basename "$wheel") ($(du -m "$wheel" | cut -f1) MB) with pip from its configured index in $((SECONDS - started)) s"
  wheel_line="wheel $(basename "$wheel") sha256 $(sha256sum "$wheel" | cut -d' ' -f1)"

  # The libraries, and all the headers for a moment (268 MB) to compute the closure from.
  "$PYTHON" - "$wheel" "$WORK/x" <<'EOF'
import sys, zipfile
wheel, out = sys.argv[1], sys.argv[2]
with zipfile.ZipFile(wheel) as z:
    names = [n for n in z.namelist()
             if n in ('tensorflow/libtensorflow_cc.so.2', 'tensorflow/libtensorflow_framework.so.2')
             or (n.startswith('tensorflow/include/') and not n.endswith('/'))]
    for n in names:
        z.extract(n, out)
EOF
  rm -f "$wheel"
  mkdir -p "$WORK/cache/lib" "$WORK/cache/include"
  for lib in libtensorflow_cc.so.2 libtensorflow_framework.so.2; do
    if command -v strip >/dev/null; then
      # Keeps the dynamic symbols (the C API's TF_* functions): 788 -> 583 MB and 65 -> 51 MB.
      strip --strip-unneeded -o "$WORK/cache/lib/$lib" "$WORK/x/tensorflow/$lib"
    else
      mv "$WORK/x/tensorflow/$lib" "$WORK/cache/lib/$lib"
    fi
  done

  # The header closure of tfjs-node's binding: every header g++ reads from the wheel's include/.
  inc="$WORK/x/tensorflow/include"
  node_inc=$(node -p "require('path').join(process.execPath, '../../include/node')")
  g++ -std=c++17 -M -MG -DNAPI_VERSION=8 -I"$PKG/.." -I"$inc" -I"$node_inc" "$PKG"/binding/*.cc 2>"$LOG" |
    tr ' \\' '\n\n' | grep -F "$inc/" | sort -u | while read -r header; do
    rel=${header#"$inc"/}
    mkdir -p "$WORK/cache/include/$(dirname "$rel")"
    cp "$header" "$WORK/cache/include/$rel"
  done
  for needed in tensorflow/c/c_api.h tensorflow/c/eager/c_api.h; do
    [ -f "$WORK/cache/include/$needed" ] || missing "the wheel's include/ has no $needed ($(last_error))"
  done
  {
    echo "$wheel_line"
    (cd "$WORK/cache" && sha256sum lib/*)
    echo "headers $(find "$WORK/cache/include" -type f | wc -l)"
  } >"$WORK/cache/MANIFEST"
  rm -rf "$CACHE"
  mv "$WORK/cache" "$CACHE"
  rm -rf "$WORK"
  WORK=""
  say "cached TensorFlow $TF_VERSION's C library in $CACHE ($(du -sh "$CACHE" | cut -f1))"
fi

# 3. deps/ as binding.gyp and install.js expect it, pointing into the cache:
#    -ltensorflow and -ltensorflow_framework link libtensorflow.so and libtensorflow_framework.so;
#    the addon then needs the libraries' sonames (libtensorflow_cc.so.2, libtensorflow_framework.so.2)
#    at run time through its rpath $ORIGIN/../../deps/lib; install.js skips its download when
#    libtensorflow.so.2.9.1 exists (should anyone run it).
deps_ok() {
  [ "$(readlink "$PKG/deps/lib/libtensorflow_cc.so.2" 2>/dev/null)" = "$CACHE/lib/libtensorflow_cc.so.2" ] &&
    [ "$(readlink "$PKG/deps/include" 2>/dev/null)" = "$CACHE/include" ] &&
    [ -e "$PKG/deps/lib/libtensorflow.so.2.9.1" ]
}
if ! deps_ok; then
  rm -rf "$PKG/deps"
  mkdir -p "$PKG/deps/lib"
  ln -s "$CACHE/include" "$PKG/deps/include"
  ln -s "$CACHE/lib/libtensorflow_cc.so.2" "$PKG/deps/lib/libtensorflow_cc.so.2"
  ln -s "$CACHE/lib/libtensorflow_framework.so.2" "$PKG/deps/lib/libtensorflow_framework.so.2"
  ln -s libtensorflow_cc.so.2 "$PKG/deps/lib/libtensorflow.so"
  ln -s libtensorflow_cc.so.2 "$PKG/deps/lib/libtensorflow.so.2.9.1"
  ln -s libtensorflow_framework.so.2 "$PKG/deps/lib/libtensorflow_framework.so"
fi

# 4. The addon: built from source once against the cached libraries (never tfjs-node's prebuilt
#    one, which is built against 2.9.1), then kept in the cache and copied after each `npm ci`.
if [ ! -f "$cached_addon" ]; then
  # Node's headers beside its executable (/usr/include/node for Debian's nodejs); without them
  # node-gyp downloads them for this Node version.
  node_prefix=$(node -p "require('path').resolve(process.execPath, '../..')")
  if [ -f "$node_prefix/include/node/node_api.h" ] && [ -f "$node_prefix/include/node/common.gypi" ]; then
    export npm_config_nodedir="$node_prefix"
  fi
  npm_dir=$(dirname "$(dirname "$(readlink -f "$(command -v npm)")")")
  if [ -f "$npm_dir/node_modules/node-gyp/bin/node-gyp.js" ]; then
    export npm_config_node_gyp="$npm_dir/node_modules/node-gyp/bin/node-gyp.js"
  fi
  say "building tfjs-node's addon from source against TensorFlow $TF_VERSION (about 30 s)..."
  rm -rf "$PKG/build" "$PKG/lib"
  pre_gyp=$(node -p "require.resolve('@mapbox/node-pre-gyp/bin/node-pre-gyp', { paths: ['$PKG'] })")
  # tfjs-node's own build-addon-from-source; it picks the highest Node-API version it supports.
  if ! (cd "$PKG" && npm_config_build_from_source=true JOBS=max node "$pre_gyp" install --build-from-source) >"$LOG" 2>&1; then
    missing "tfjs-node's addon did not build ($(last_error))"
  fi
  mkdir -p "$(dirname "$cached_addon")"
  cp "$addon" "$cached_addon.tmp"
  mv "$cached_addon.tmp" "$cached_addon"
  rm -rf "$PKG"/build "$PKG"/build-tmp-napi-v*
elif ! cmp -s "$addon" "$cached_addon"; then
  mkdir -p "$(dirname "$addon")"
  cp "$cached_addon" "$addon"
fi

# 5. Proof: load the addon and ask TensorFlow its version.
if ! version=$(node -e "console.log(require('$addon').TF_Version)" 2>"$LOG"); then
  missing "tfjs-node's addon does not load ($(last_error))"
fi
if [ "$version" != "$TF_VERSION" ]; then
  missing "tfjs-node's addon reports TensorFlow $version, expected $TF_VERSION"
fi
say "@tensorflow/tfjs-node $TFJS_NODE_VERSION on TensorFlow $version (TF_Version from the binding); libraries in $CACHE"

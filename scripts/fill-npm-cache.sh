#!/usr/bin/env bash
# Fills npm's cache with the packages of the commit that `npm test`'s A/B gate measures against
# (the commit of the baseline its `ab --base` names, package.json's test:perf). The gate installs
# that commit's dependencies in a checkout of its own (npm ci --prefer-offline); with them in the
# cache it reaches no registry, so `npm test` passes with the network cut off (issue 42). Part of
# the install (.ci/run), not of the test: a fresh machine's cache holds only this commit's packages.
set -euo pipefail
cd "$(dirname "$0")/.."
baseline=$(node -e 'const s = require("./package.json").scripts["test:perf"]; const m = s.match(/ ab --base (\S+)/); if (!m) process.exit(1); console.log(m[1])') ||
  { echo "fill-npm-cache: no 'ab --base FILE' in package.json's test:perf" >&2; exit 2; }
commit=$(node -e 'console.log(JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")).git.commit)' "$baseline")
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
git show "$commit:package.json" > "$dir/package.json"
git show "$commit:package-lock.json" > "$dir/package-lock.json"
# Install scripts are not needed to fill the cache; the gate's own install runs them.
npm ci --ignore-scripts --no-audit --no-fund --prefix "$dir" > /dev/null
echo "npm's cache holds the packages of ${commit:0:12} (the A/B gate's base, $baseline)"

#!/usr/bin/env bash
# Fills npm's cache with the packages of the commits that `npm test`'s A/B gates measure against
# (the commit of each baseline an `ab ... --base` names, package.json's test:gates). The gate installs
# that commit's dependencies in a checkout of its own (npm ci --prefer-offline); with them in the
# cache it reaches no registry, so `npm test` passes with the network cut off (issue 42). Part of
# the install (.ci/run), not of the test: a fresh machine's cache holds only this commit's packages.
set -euo pipefail
cd "$(dirname "$0")/.."
baselines=$(node -e 'const s = require("./package.json").scripts["test:gates"]; const m = [...s.matchAll(/ ab .*?--base (\S+\.json)/g)].map((x) => x[1]); if (m.length === 0) process.exit(1); console.log(m.join("\n"))') ||
  { echo "fill-npm-cache: no 'ab ... --base FILE' in package.json's test:gates" >&2; exit 2; }
for baseline in $baselines; do
  commit=$(node -e 'console.log(JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")).git.commit)' "$baseline")
  # A base whose lockfile is this tree's installs nothing: the gate links this tree's node_modules.
  if [ "$(git show "$commit:package-lock.json")" = "$(cat package-lock.json)" ]; then
    echo "npm's cache: ${commit:0:12} (the A/B gate's base, $baseline) has this tree's lockfile; nothing to fill"
    continue
  fi
  dir=$(mktemp -d)
  git show "$commit:package.json" > "$dir/package.json"
  git show "$commit:package-lock.json" > "$dir/package-lock.json"
  # Install scripts are not needed to fill the cache; the gate's own install runs them.
  npm ci --ignore-scripts --no-audit --no-fund --prefix "$dir" > /dev/null
  rm -rf "$dir"
  echo "npm's cache holds the packages of ${commit:0:12} (the A/B gate's base, $baseline)"
done

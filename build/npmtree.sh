#!/usr/bin/env bash
# npmtree.sh DIR [NPM-CI-FLAGS...]: gives DIR the node_modules that
# 'npm ci NPM-CI-FLAGS' makes there, from a tree kept in the user's cache
# (~/.cache/switchboard/npm-trees) under a key of DIR's package.json, its
# lockfile, the Node version and the flags.
#
# Why: the frontend and the test set-up's five pinned sets of MCP servers
# and clients (2.1 GB in 146,000 files) take ~115 s of 'npm ci' on 2 cores
# even with npm's own cache filled, and a clean clone (CI's) has to do it
# every time. The first install fills the kept tree; a checkout then gets a copy
# made of hard links (cp -al, a few seconds; a plain copy when the cache is
# on another file system). A changed lockfile makes a new key, and the tree
# of the old key is removed.
#
# The copy's files share their data with the kept tree, so nothing may
# write into an installed file in place: the tests only run the packages,
# and the frontend's tools (vite, ESLint) write new files of their own
# (node_modules/.vite, .cache), which land in the checkout's directories.
# Two runs at once (two checkouts' make test) each install into a temporary
# directory and the first to finish keeps its tree.
set -euo pipefail
dir=${1:?usage: npmtree.sh DIR [NPM-CI-FLAGS...]}
shift
cache=${XDG_CACHE_HOME:-$HOME/.cache}/switchboard/npm-trees
# The tree's name is DIR's path in the repository (mcpmanager-testdata-npm).
name=$(git -C "$dir" rev-parse --show-prefix 2>/dev/null || basename "$dir")
name=$(printf '%s' "${name%/}" | tr / -)
# The key names what npm ci's result depends on.
key=$({ cat "$dir/package.json" "$dir/package-lock.json"; node --version; printf '%s\n' "$@"; } | sha256sum | cut -c1-16)
tree=$cache/$name-$key
mkdir -p "$cache"
if [ ! -f "$tree/node_modules/.package-lock.json" ]; then
  tmp=$(mktemp -d "$cache/.$name-XXXXXX")
  trap 'rm -rf "$tmp"' EXIT
  cp "$dir/package.json" "$dir/package-lock.json" "$tmp/"
  echo "npmtree: npm ci $* for $dir (kept in $tree)"
  (cd "$tmp" && npm ci --no-audit --no-fund "$@")
  if mv -T "$tmp" "$tree" 2>/dev/null; then
    for old in "$cache/$name"-*; do [ "$old" = "$tree" ] || rm -rf "$old"; done
  fi
fi
rm -rf "$dir/node_modules"
cp -al "$tree/node_modules" "$dir/node_modules" 2>/dev/null || { rm -rf "$dir/node_modules"; cp -a "$tree/node_modules" "$dir/node_modules"; }

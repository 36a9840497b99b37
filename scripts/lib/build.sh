# Sourced: installs npm dependencies when needed, then generates contracts and compiles.
install_deps() {
  if [ "${CI:-}" = "true" ] || [ ! -f "$ROOT/node_modules/.package-lock.json" ] || [ "$ROOT/package-lock.json" -nt "$ROOT/node_modules/.package-lock.json" ]; then
    echo "build: npm ci" >&2
    (cd "$ROOT" && npm ci --no-audit --no-fund --loglevel=error)
  fi
}
build_all() {
  echo "build: buf generate + tsc -b" >&2
  (cd "$ROOT" && npx buf generate && npx tsc -b)
  echo "build: dashboard web app (vite)" >&2
  (cd "$ROOT" && npm run --silent build -w @spa/dashboard)
}

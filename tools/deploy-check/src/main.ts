#!/usr/bin/env node
import { readdirSync } from 'node:fs';
/**
 * deploy-check: validates the deployment files without network access.
 *
 *   node tools/deploy-check/dist/main.js [repo-root]
 *
 * - every YAML file under deploy/ parses; each Kubernetes object validates against the Kubernetes
 *   OpenAPI schema (kubernetes-models); every kustomization's referenced files exist;
 * - docker-compose.yml validates against the Compose Specification JSON schema (shipped in an npm package);
 * - cross-file consistency: Service targetPorts <-> container ports, probe ports, selectors, HPA targets,
 *   ConfigMap/Secret references, *_ADDR host:port settings, `node X/dist/main.js` <-> `X/src/main.ts`,
 *   compose services built from the Dockerfile <-> Deployments, non-root / read-only / resources policy.
 *
 * Exits 1 and prints one line per problem; prints a one-line summary and exits 0 when all is valid.
 */
import { fileURLToPath } from 'node:url';
import { checkCompose } from './compose.js';
import { checkKubernetes, type K8sObject } from './kubernetes.js';
import { arr, nodeEntry, obj, Problems, Repo } from './util.js';

const DEPLOY_DIR = 'deploy';
const COMPOSE_FILE = 'docker-compose.yml';
const DOCKERFILE = 'Dockerfile';

function checkDockerfile(repo: Repo, problems: Problems): void {
  if (!repo.isFile(DOCKERFILE)) {
    problems.add(DOCKERFILE, 'not found');
    return;
  }
  if (!repo.isFile('.dockerignore')) problems.add('.dockerignore', 'not found (the build context would include node_modules and .git)');
  else {
    const ignored = repo
      .read('.dockerignore')
      .split('\n')
      .map((l) => l.trim());
    for (const needed of ['node_modules', 'dist', '.git']) {
      if (!ignored.some((l) => l === needed || l === `**/${needed}` || l === `/${needed}`)) problems.add('.dockerignore', `does not ignore ${needed}`);
    }
  }
  const lines = repo.read(DOCKERFILE).split('\n');
  const stages = lines.map((l, i) => [l, i + 1] as const).filter(([l]) => /^\s*FROM\s/i.test(l));
  if (stages.length < 2) problems.add(DOCKERFILE, 'expected a multi-stage build (build + runtime)');
  const lastFrom = stages.at(-1)?.[1] ?? 0;
  const users = lines.slice(lastFrom).filter((l) => /^\s*USER\s/i.test(l));
  const user = users.at(-1)?.trim().split(/\s+/)[1];
  if (!user || /^(root|0)(:|$)/.test(user)) problems.add(`${DOCKERFILE}:${lastFrom}`, 'the runtime stage must end with a non-root USER');
  const base = lines.find((l) => /^\s*ARG\s+NODE_IMAGE=/.test(l));
  if (!base || !/@sha256:[0-9a-f]{64}\b/.test(base)) problems.add(DOCKERFILE, 'the base image (ARG NODE_IMAGE) must be pinned by digest (@sha256:...)');
  // Manifests are copied before sources (dependency layers cache): every workspace must be among them.
  for (const manifest of workspaceManifests(repo)) {
    if (!lines.some((l) => new RegExp(`^\\s*COPY\\s+${manifest.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}\\s`).test(l))) {
      problems.add(DOCKERFILE, `${manifest} is not copied before the sources (add COPY ${manifest} ${manifest.replace(/package\.json$/, '')})`);
    }
  }
}

/** package.json of every npm workspace named by the root package.json (folder globs like libs/*). */
function workspaceManifests(repo: Repo): string[] {
  const globs = (JSON.parse(repo.read('package.json')) as { workspaces?: string[] }).workspaces ?? [];
  return globs.flatMap((g) => {
    const dirs = g.endsWith('/*') ? (repo.isDir(g.slice(0, -2)) ? readdirSync(repo.abs(g.slice(0, -2))).map((d) => `${g.slice(0, -2)}/${d}`) : []) : [g];
    return dirs.filter((d) => repo.isFile(`${d}/package.json`)).map((d) => `${d}/package.json`);
  });
}

/** Each compose service built from the Dockerfile has a Deployment of the same name running the same entry file, and back. */
function checkComposeMatchesKubernetes(composeServices: Array<{ name: string; entry?: string }>, kustomizations: Map<string, K8sObject[]>, problems: Problems): void {
  const built = new Map(composeServices.filter((s) => s.entry).map((s) => [s.name, s.entry!]));
  for (const [kfile, members] of kustomizations) {
    const deployments = new Map<string, K8sObject>();
    for (const m of members) if (m.kind === 'Deployment') deployments.set(m.name, m);
    // A kustomization without workloads (monitoring rules and dashboards) is not a deployment of the system.
    if (deployments.size === 0) continue;
    for (const [name, entry] of built) {
      const d = deployments.get(name);
      if (!d) {
        problems.add(COMPOSE_FILE, `service ${name} is built from the Dockerfile but ${kfile} has no Deployment ${name}`);
        continue;
      }
      const containers = arr(obj(obj(obj(d.o.spec).template).spec).containers).map(obj);
      const entries = containers.map((c) => nodeEntry([...arr(c.command), ...arr(c.args)].map(String)));
      if (!entries.includes(entry)) {
        problems.add(d.doc.where, `Deployment/${name} runs ${entries.filter(Boolean).join(', ') || 'no node entry'} but compose service ${name} runs ${entry}`);
      }
    }
    for (const [name, d] of deployments) {
      if (!built.has(name)) problems.add(d.doc.where, `Deployment/${name} has no compose service of the same name built from the Dockerfile in ${COMPOSE_FILE}`);
    }
  }
}

function main(): number {
  const root = process.argv[2] ?? fileURLToPath(new URL('../../../', import.meta.url));
  const repo = new Repo(root);
  const problems = new Problems();

  checkDockerfile(repo, problems);
  const { objects, kustomizations } = checkKubernetes(repo, DEPLOY_DIR, problems);
  const composeServices = checkCompose(repo, COMPOSE_FILE, problems);
  if (repo.unparsable.size > 0) {
    problems.add([...repo.unparsable].join(', '), 'cross-file checks skipped until the YAML parses');
  } else {
    if (kustomizations.size === 0) problems.add(DEPLOY_DIR, 'no kustomization.yaml found');
    checkComposeMatchesKubernetes(composeServices, kustomizations, problems);
  }

  if (problems.list.length > 0) {
    for (const p of problems.list) process.stderr.write(`deploy-check: ${p}\n`);
    process.stderr.write(`deploy-check: FAILED, ${problems.list.length} problem${problems.list.length === 1 ? '' : 's'}\n`);
    return 1;
  }
  const files = new Set(objects.map((o) => o.doc.file)).size + kustomizations.size;
  process.stdout.write(
    `deploy-check: ${objects.length} Kubernetes objects (${files} files, ${kustomizations.size} kustomization${kustomizations.size === 1 ? '' : 's'}), ${COMPOSE_FILE} and ${DOCKERFILE} valid\n`,
  );
  return 0;
}

try {
  process.exitCode = main();
} catch (err) {
  process.stderr.write(`deploy-check: internal error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exitCode = 2;
}

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Ajv, type ErrorObject } from 'ajv';
import { arr, checkNodeCommand, isObj, obj, type Obj, type Problems, type Repo, str } from './util.js';

/**
 * The official Compose Specification JSON schema (compose-spec/compose-spec, schema/compose-spec.json),
 * as shipped inside the `dclint` npm package (which refreshes it from upstream); read from disk, never downloaded.
 */
export function loadComposeSchema(): { schema: Obj; source: string } {
  const require = createRequire(import.meta.url);
  const dir = dirname(require.resolve('dclint/package.json'));
  const source = join(dir, 'schemas', 'compose.schema.json');
  const schema = JSON.parse(readFileSync(source, 'utf8')) as unknown;
  if (!isObj(schema) || schema.title !== 'Compose Specification' || !isObj(schema.definitions)) {
    throw new Error(`${source} is not the Compose Specification schema`);
  }
  return { schema, source };
}

export interface ComposeService {
  name: string;
  /** node entry file (e.g. services/posts/dist/main.js) for services built from the Dockerfile. */
  entry?: string;
}

function formatAjvError(e: ErrorObject): string {
  const at = e.instancePath || '/';
  if (e.keyword === 'additionalProperties') return `${at}: unknown property "${String(e.params.additionalProperty)}"`;
  if (e.keyword === 'enum') return `${at}: ${e.message ?? 'invalid'} ${JSON.stringify(e.params.allowedValues)}`;
  return `${at}: ${e.message ?? 'invalid'}`;
}

/** The exec-form CMD of the Dockerfile's last stage (what a container runs when compose sets no command). */
function dockerfileCmd(text: string): string[] | undefined {
  let cmd: string[] | undefined;
  for (const line of text.split('\n')) {
    if (/^\s*FROM\s/i.test(line)) cmd = undefined;
    const m = /^\s*CMD\s+(\[.*\])\s*$/i.exec(line);
    if (m) {
      try {
        cmd = (JSON.parse(m[1]!) as unknown[]).map(String);
      } catch {
        cmd = undefined;
      }
    }
  }
  return cmd;
}

function argvOf(command: unknown): string[] | undefined {
  if (Array.isArray(command)) return command.map(String);
  if (typeof command === 'string') return command.trim().split(/\s+/);
  return undefined;
}

/** Only `${VAR}`, `${VAR:-default}`, `${VAR:?message}`, ... : a value that is a pure interpolation. */
const isInterpolation = (v: unknown): boolean => typeof v === 'string' && /^\$\{[A-Za-z_][A-Za-z0-9_]*(?:(?::?[-?+]).*)?\}$/s.test(v);

function envMap(environment: unknown): Obj {
  if (isObj(environment)) return environment;
  const out: Obj = {};
  for (const item of arr(environment)) {
    const s = String(item);
    const i = s.indexOf('=');
    out[i < 0 ? s : s.slice(0, i)] = i < 0 ? null : s.slice(i + 1);
  }
  return out;
}

export function checkCompose(repo: Repo, file: string, problems: Problems): ComposeService[] {
  if (!repo.isFile(file)) {
    problems.add(file, 'not found');
    return [];
  }
  const docs = repo.loadYaml(file, problems);
  if (docs.length !== 1) {
    if (docs.length > 1) problems.add(file, 'expected exactly one YAML document');
    return [];
  }
  const doc = docs[0]!;
  const compose = doc.value;

  const { schema } = loadComposeSchema();
  // The schema declares draft-07 as "https://json-schema.org/draft-07/schema", an alias Ajv does not know;
  // Ajv's default dialect is draft-07, so the declaration is dropped rather than fetched.
  const { $schema: dialect, ...body } = schema;
  if (typeof dialect === 'string' && !dialect.includes('draft-07')) throw new Error(`Compose schema uses ${dialect}; expected draft-07`);
  const ajv = new Ajv({ allErrors: true, strict: false });
  const validate = ajv.compile(body);
  if (!validate(compose)) {
    const seen = new Set<string>();
    for (const e of validate.errors ?? []) {
      const msg = formatAjvError(e);
      if (!seen.has(msg)) problems.add(file, `Compose Specification: ${msg}`);
      seen.add(msg);
    }
  }
  if (!isObj(compose)) return [];

  const services = obj(compose.services);
  if (Object.keys(services).length === 0) problems.add(file, 'no services');
  const out: ComposeService[] = [];
  for (const [name, raw] of Object.entries(services)) {
    const svc = obj(raw);
    const where = `${file} (service ${name})`;
    const result: ComposeService = { name };

    if (svc.build !== undefined) {
      const build = isObj(svc.build) ? svc.build : { context: svc.build };
      const context = str(build.context) ?? '.';
      const dockerfile = `${context === '.' ? '' : `${context.replace(/\/$/, '')}/`}${str(build.dockerfile) ?? 'Dockerfile'}`;
      if (!repo.isDir(context)) problems.add(where, `build context ${context} does not exist`);
      else if (!repo.isFile(dockerfile)) problems.add(where, `${dockerfile} does not exist`);
      else {
        const argv = argvOf(svc.command) ?? dockerfileCmd(repo.read(dockerfile));
        if (!argv) problems.add(where, `no command, and ${dockerfile} has no exec-form CMD`);
        else result.entry = checkNodeCommand(repo, argv, where, problems);
      }
      if (!isObj(svc.healthcheck) || svc.healthcheck.disable === true) problems.add(where, 'services built from the Dockerfile need a healthcheck');
    }

    const env = envMap(svc.environment);
    for (const [key, value] of Object.entries(env)) {
      if (/SECRET|PASSWORD|TOKEN|_KEY$/.test(key) && value !== null && !isInterpolation(value)) {
        problems.add(where, `${key} must come from the environment / .env (e.g. \${${key}:?set ${key}}), not a committed value`);
      }
    }
    // A gRPC/HTTP port must be the one the healthcheck probes (catches copy-paste slips when adding a service).
    const port = env.GRPC_PORT ?? env.HTTP_PORT;
    const test = arr(obj(svc.healthcheck).test).map(String).join(' ') || String(obj(svc.healthcheck).test ?? '');
    if (port !== undefined && isObj(svc.healthcheck) && !test.includes(`:${String(port)}`)) {
      problems.add(where, `healthcheck does not probe port ${String(port)} (GRPC_PORT/HTTP_PORT)`);
    }

    const dependsOn = svc.depends_on;
    const deps = Array.isArray(dependsOn) ? dependsOn.map((d) => [String(d), {}] as const) : Object.entries(obj(dependsOn));
    for (const [dep, cond] of deps) {
      const target = services[dep];
      if (target === undefined) problems.add(where, `depends_on ${dep}: no such service`);
      else if (obj(cond).condition === 'service_healthy' && !isObj(obj(target).healthcheck)) {
        problems.add(where, `depends_on ${dep} with service_healthy, but ${dep} has no healthcheck`);
      }
    }
    out.push(result);
  }

  // host:port settings must name a compose service and the port it listens on.
  for (const [name, raw] of Object.entries(services)) {
    for (const [key, value] of Object.entries(envMap(obj(raw).environment))) {
      if (!/_ADDR$/.test(key) || typeof value !== 'string' || isInterpolation(value)) continue;
      const m = /^([\w.-]+):(\d+)$/.exec(value);
      const target = m ? services[m[1]!] : undefined;
      if (!m || target === undefined) {
        problems.add(`${file} (service ${name})`, `${key}=${value} does not name a compose service as host:port`);
        continue;
      }
      const targetEnv = envMap(obj(target).environment);
      const listens = targetEnv.GRPC_PORT ?? targetEnv.HTTP_PORT;
      if (listens !== undefined && String(listens) !== m[2]) {
        problems.add(`${file} (service ${name})`, `${key}=${value} but ${m[1]} listens on ${String(listens)}`);
      }
    }
  }
  return out;
}

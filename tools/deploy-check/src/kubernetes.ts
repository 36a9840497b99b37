import { readdirSync } from 'node:fs';
import { posix } from 'node:path';
import { Deployment, StatefulSet } from 'kubernetes-models/apps/v1';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2';
import { CronJob, Job } from 'kubernetes-models/batch/v1';
import { Ingress, NetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1';
import { ConfigMap, Secret, Service, ServiceAccount } from 'kubernetes-models/v1';
import { checkReferences } from './references.js';
import { arr, isObj, obj, type Obj, type Problems, type Repo, str, type YamlDoc } from './util.js';

/** apiVersion + kind -> kubernetes-models class (its validate() checks the object against the official OpenAPI schema). */
const MODELS: Record<string, new (data: never) => { validate(): void }> = {
  'apps/v1/Deployment': Deployment,
  'apps/v1/StatefulSet': StatefulSet,
  'v1/Service': Service,
  'v1/ConfigMap': ConfigMap,
  'v1/Secret': Secret,
  'v1/ServiceAccount': ServiceAccount,
  'autoscaling/v2/HorizontalPodAutoscaler': HorizontalPodAutoscaler,
  'policy/v1/PodDisruptionBudget': PodDisruptionBudget,
  'networking.k8s.io/v1/Ingress': Ingress,
  'networking.k8s.io/v1/NetworkPolicy': NetworkPolicy,
  'batch/v1/Job': Job,
  'batch/v1/CronJob': CronJob,
};

const KUSTOMIZATION_FILES = ['kustomization.yaml', 'kustomization.yml', 'Kustomization'];

const KUSTOMIZATION_FIELDS = new Set([
  'apiVersion',
  'kind',
  'metadata',
  'resources',
  'components',
  'crds',
  'namespace',
  'namePrefix',
  'nameSuffix',
  'commonLabels',
  'labels',
  'commonAnnotations',
  'patches',
  'patchesStrategicMerge',
  'patchesJson6902',
  'images',
  'replicas',
  'configMapGenerator',
  'secretGenerator',
  'generatorOptions',
  'replacements',
  'vars',
  'openapi',
  'generators',
  'transformers',
  'validators',
  'buildMetadata',
  'helmCharts',
  'helmGlobals',
  'sortOptions',
  'configurations',
  'bases',
]);

export interface K8sObject {
  doc: YamlDoc;
  apiVersion: string;
  kind: string;
  name: string;
  o: Obj;
}

export interface KubernetesResult {
  objects: K8sObject[];
  /** Objects reachable from each kustomization, keyed by the kustomization file. */
  kustomizations: Map<string, K8sObject[]>;
}

function listYamlFiles(repo: Repo, dir: string): string[] {
  if (!repo.isDir(dir)) return [];
  const out: string[] = [];
  for (const entry of readdirSync(repo.abs(dir), { withFileTypes: true })) {
    const rel = `${dir}/${entry.name}`;
    if (entry.isDirectory()) out.push(...listYamlFiles(repo, rel));
    else if (/\.ya?ml$/.test(entry.name) || entry.name === 'Kustomization') out.push(rel);
  }
  return out.sort();
}

const isKustomization = (file: string): boolean => KUSTOMIZATION_FILES.includes(posix.basename(file));
const isRemote = (ref: string): boolean => /^[a-z][a-z0-9+.-]*:\/\//i.test(ref) || /^(github\.com|gitlab\.com|bitbucket\.org)\//.test(ref);

/** Validates every YAML file under `deployDir`, then the kustomizations and the cross-object references. */
export function checkKubernetes(repo: Repo, deployDir: string, problems: Problems): KubernetesResult {
  const files = listYamlFiles(repo, deployDir);
  if (files.length === 0) problems.add(deployDir, 'no YAML files found');

  const objectsByFile = new Map<string, K8sObject[]>();
  const kustomizationDocs: YamlDoc[] = [];
  for (const file of files) {
    const docs = repo.loadYaml(file, problems);
    if (isKustomization(file)) {
      kustomizationDocs.push(...docs);
      continue;
    }
    const objects: K8sObject[] = [];
    for (const doc of docs) {
      const o = validateObject(doc, problems);
      if (o) objects.push(o);
    }
    objectsByFile.set(file, objects);
  }
  const objects = [...objectsByFile.values()].flat();

  const kustomizations = new Map<string, K8sObject[]>();
  if (repo.unparsable.size > 0) return { objects, kustomizations };
  for (const doc of kustomizationDocs) {
    kustomizations.set(doc.file, collectKustomization(repo, doc, objectsByFile, problems, new Set()));
  }
  // Objects outside every kustomization (e.g. secret.example.yaml) document shapes other files rely on.
  const inKustomization = new Set([...kustomizations.values()].flat());
  const examples = objects.filter((o) => !inKustomization.has(o));
  for (const [file, members] of kustomizations) checkReferences(repo, file, members, examples, problems);
  return { objects, kustomizations };
}

function validateObject(doc: YamlDoc, problems: Problems): K8sObject | undefined {
  const o = doc.value;
  if (!isObj(o)) {
    problems.add(doc.where, 'document is not a mapping (expected a Kubernetes object)');
    return undefined;
  }
  const apiVersion = str(o.apiVersion);
  const kind = str(o.kind);
  const name = str(obj(o.metadata).name);
  if (!apiVersion || !kind) {
    problems.add(doc.where, 'not a Kubernetes object: apiVersion and kind are required');
    return undefined;
  }
  const label = `${kind}/${name ?? '?'}`;
  if (!name) problems.add(doc.where, `${kind}: metadata.name is required`);
  const Model = MODELS[`${apiVersion}/${kind}`];
  try {
    if (!Model) {
      problems.add(doc.where, `${label}: no validator for ${apiVersion} ${kind} (add its kubernetes-models class to tools/deploy-check/src/kubernetes.ts)`);
    } else {
      new Model(o as never).validate();
    }
  } catch (err) {
    const errors = (err as { errors?: Array<{ instancePath: string; message?: string; params?: Obj }> }).errors;
    if (errors?.length) {
      for (const e of errors) {
        const extra = e.params && 'allowedValues' in e.params ? ` (${JSON.stringify(e.params.allowedValues)})` : '';
        problems.add(doc.where, `${label}: ${e.instancePath || '/'} ${e.message ?? 'is invalid'}${extra}`);
      }
    } else {
      problems.add(doc.where, `${label}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  return { doc, apiVersion, kind, name: name ?? '', o };
}

/** Checks that every file a kustomization names exists, and returns the objects of its resources (recursively). */
function collectKustomization(repo: Repo, doc: YamlDoc, objectsByFile: Map<string, K8sObject[]>, problems: Problems, seen: Set<string>): K8sObject[] {
  const k = doc.value;
  const dir = posix.dirname(doc.file);
  if (seen.has(doc.file)) return [];
  seen.add(doc.file);
  if (!isObj(k)) {
    problems.add(doc.where, 'kustomization is not a mapping');
    return [];
  }
  if (k.apiVersion !== undefined && k.apiVersion !== 'kustomize.config.k8s.io/v1beta1' && k.apiVersion !== 'kustomize.config.k8s.io/v1alpha1') {
    problems.add(doc.where, `unexpected apiVersion ${JSON.stringify(k.apiVersion)} (kustomize.config.k8s.io/v1beta1)`);
  }
  if (k.kind !== undefined && k.kind !== 'Kustomization' && k.kind !== 'Component') {
    problems.add(doc.where, `unexpected kind ${JSON.stringify(k.kind)} (Kustomization)`);
  }
  for (const key of Object.keys(k)) {
    if (!KUSTOMIZATION_FIELDS.has(key)) problems.add(doc.where, `unknown kustomization field "${key}"`);
  }

  const members: K8sObject[] = [];
  const referenced = new Set<string>();
  const mustExist = (ref: unknown, field: string, allowDir: boolean): string | undefined => {
    const r = str(ref);
    if (r === undefined) {
      problems.add(doc.where, `${field}: expected a path string, got ${JSON.stringify(ref)}`);
      return undefined;
    }
    if (isRemote(r)) return undefined;
    const rel = posix.normalize(posix.join(dir, r));
    if (repo.isFile(rel)) {
      referenced.add(rel);
      return rel;
    }
    if (allowDir && repo.isDir(rel)) {
      if (!KUSTOMIZATION_FILES.some((f) => repo.isFile(`${rel}/${f}`))) {
        problems.add(doc.where, `${field}: directory ${rel} has no kustomization.yaml`);
      }
      return rel;
    }
    problems.add(doc.where, `${field}: ${r} does not exist (${rel})`);
    return undefined;
  };

  const takeResource = (rel: string | undefined, field: string): void => {
    if (!rel) return;
    if (repo.isDir(rel)) {
      const kfile = KUSTOMIZATION_FILES.map((f) => `${rel}/${f}`).find((f) => repo.isFile(f));
      if (kfile) {
        for (const sub of repo.loadYaml(kfile, problems)) members.push(...collectKustomization(repo, sub, objectsByFile, problems, seen));
      }
      return;
    }
    const objs = objectsByFile.get(rel);
    if (objs === undefined) problems.add(doc.where, `${field}: ${rel} is not a YAML manifest under the checked folder`);
    else if (objs.length === 0) problems.add(doc.where, `${field}: ${rel} contains no Kubernetes object`);
    else members.push(...objs);
  };

  arr(k.resources).forEach((r, i) => takeResource(mustExist(r, `resources[${i}]`, true), `resources[${i}]`));
  arr(k.bases).forEach((r, i) => takeResource(mustExist(r, `bases[${i}]`, true), `bases[${i}]`));
  arr(k.components).forEach((r, i) => mustExist(r, `components[${i}]`, true));
  arr(k.crds).forEach((r, i) => mustExist(r, `crds[${i}]`, false));
  arr(k.configurations).forEach((r, i) => mustExist(r, `configurations[${i}]`, false));
  for (const field of ['generators', 'transformers', 'validators'] as const) {
    arr(k[field]).forEach((r, i) => {
      if (typeof r === 'string' && /\.ya?ml$/.test(r)) mustExist(r, `${field}[${i}]`, false);
    });
  }
  arr(k.patches).forEach((p, i) => {
    if (isObj(p) && p.path !== undefined) mustExist(p.path, `patches[${i}].path`, false);
  });
  arr(k.patchesJson6902).forEach((p, i) => {
    if (isObj(p) && p.path !== undefined) mustExist(p.path, `patchesJson6902[${i}].path`, false);
  });
  arr(k.patchesStrategicMerge).forEach((p, i) => {
    if (typeof p === 'string' && !p.includes('\n')) mustExist(p, `patchesStrategicMerge[${i}]`, false);
  });
  arr(k.replacements).forEach((p, i) => {
    if (isObj(p) && p.path !== undefined) mustExist(p.path, `replacements[${i}].path`, false);
  });
  for (const gen of ['configMapGenerator', 'secretGenerator'] as const) {
    arr(k[gen]).forEach((g, i) => {
      const G = obj(g);
      arr(G.files).forEach((f, j) => {
        const path = typeof f === 'string' && f.includes('=') ? f.slice(f.indexOf('=') + 1) : f;
        mustExist(path, `${gen}[${i}].files[${j}]`, false);
      });
      arr(G.envs).forEach((f, j) => mustExist(f, `${gen}[${i}].envs[${j}]`, false));
      if (G.env !== undefined) mustExist(G.env, `${gen}[${i}].env`, false);
    });
  }
  if (isObj(k.openapi) && k.openapi.path !== undefined) mustExist(k.openapi.path, 'openapi.path', false);

  // A manifest next to the kustomization that it does not list is almost always a forgotten entry.
  for (const [file, objs] of objectsByFile) {
    if (posix.dirname(file) === dir && objs.length > 0 && !referenced.has(file)) {
      problems.add(doc.where, `${file} holds Kubernetes objects but is not listed in resources`);
    }
  }

  const seenIds = new Map<string, K8sObject>();
  for (const m of members) {
    const id = `${m.apiVersion}/${m.kind}/${str(obj(m.o.metadata).namespace) ?? ''}/${m.name}`;
    const prev = seenIds.get(id);
    if (prev) problems.add(m.doc.where, `${m.kind}/${m.name} is also defined at ${prev.doc.where}`);
    else seenIds.set(id, m);
  }
  return members;
}

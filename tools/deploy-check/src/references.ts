/** Checks that the objects of one kustomization refer to each other correctly: Services to pods and ports, NetworkPolicies, PodDisruptionBudgets, autoscalers, ConfigMaps, Secrets and ServiceAccounts. */
import type { K8sObject } from './kubernetes.js';
import { arr, checkNodeCommand, isObj, obj, type Obj, type Problems, type Repo, str } from './util.js';

interface ContainerInfo {
  where: string;
  workload: K8sObject;
  c: Obj;
  ports: Array<{ name?: string; containerPort: number }>;
}

function podSpecOf(w: K8sObject): Obj | undefined {
  if (w.kind === 'Deployment' || w.kind === 'StatefulSet') return obj(obj(obj(w.o.spec).template).spec);
  return undefined;
}

function containersOf(w: K8sObject): ContainerInfo[] {
  const spec = podSpecOf(w);
  if (!spec) return [];
  return [...arr(spec.containers)].filter(isObj).map((c) => ({
    where: w.doc.where,
    workload: w,
    c,
    ports: arr(c.ports)
      .filter(isObj)
      .filter((p) => typeof p.containerPort === 'number')
      .map((p) => ({ name: str(p.name), containerPort: p.containerPort as number })),
  }));
}

function matchesSelector(labels: Obj, selector: Obj): boolean {
  const entries = Object.entries(selector);
  return entries.length > 0 && entries.every(([k, v]) => labels[k] === v);
}

function resolvePort(ref: unknown, ports: ContainerInfo['ports']): boolean {
  if (typeof ref === 'number') return ports.some((p) => p.containerPort === ref);
  if (typeof ref === 'string') return ports.some((p) => p.name === ref);
  return false;
}

/** Cross-object checks inside one kustomization (plus example Secrets kept outside it). */
export function checkReferences(repo: Repo, kfile: string, members: K8sObject[], examples: K8sObject[], problems: Problems): void {
  const byKind = (kind: string, list = members) => list.filter((m) => m.kind === kind);
  const workloads = [...byKind('Deployment'), ...byKind('StatefulSet')];
  const services = byKind('Service');
  const configMaps = new Map(byKind('ConfigMap').map((m) => [m.name, m]));
  const secrets = new Map(byKind('Secret').map((m) => [m.name, m]));
  const exampleSecrets = new Map(byKind('Secret', examples).map((m) => [m.name, m]));
  const hpaTargets = new Map<string, K8sObject>();

  for (const h of byKind('HorizontalPodAutoscaler')) {
    const ref = obj(obj(h.o.spec).scaleTargetRef);
    const target = workloads.find((w) => w.kind === ref.kind && w.name === ref.name);
    if (!target) {
      problems.add(h.doc.where, `HorizontalPodAutoscaler/${h.name}: scaleTargetRef ${String(ref.kind)}/${String(ref.name)} is not defined in ${kfile}`);
      continue;
    }
    hpaTargets.set(target.name, h);
    if (obj(target.o.spec).replicas !== undefined) {
      problems.add(target.doc.where, `${target.kind}/${target.name}: spec.replicas is set but HorizontalPodAutoscaler/${h.name} owns the replica count (every apply would reset it)`);
    }
    const usesCpu = arr(obj(h.o.spec).metrics).some((m) => obj(obj(m).resource).name === 'cpu');
    if (usesCpu) {
      for (const ci of containersOf(target)) {
        if (obj(obj(ci.c.resources).requests).cpu === undefined) {
          problems.add(ci.where, `${target.kind}/${target.name}: container ${String(ci.c.name)} needs resources.requests.cpu for the CPU-based HorizontalPodAutoscaler`);
        }
      }
    }
  }

  const keyExists = (secretOrMap: K8sObject, key: string): boolean => key in obj(secretOrMap.o.data) || key in obj(secretOrMap.o.stringData) || key in obj(secretOrMap.o.binaryData);

  const checkSecretKey = (where: string, label: string, name: string, key: string): void => {
    const s = secrets.get(name) ?? exampleSecrets.get(name);
    if (!s) {
      problems.add(where, `${label}: Secret ${name} is neither in ${kfile} nor described by an example Secret under deploy/`);
    } else if (!keyExists(s, key)) {
      problems.add(where, `${label}: key ${key} is not in Secret ${name} (${s.doc.where})`);
    }
  };

  const serviceTargets = (host: string, port: string): boolean => services.some((s) => s.name === host && arr(obj(s.o.spec).ports).some((p) => String(obj(p).port) === port));

  // host:port settings (ACCOUNTS_ADDR, ...) must name a Service of this kustomization and one of its ports.
  const checkAddr = (where: string, label: string, key: string, value: string): void => {
    if (!/_ADDR$/.test(key)) return;
    const m = /^([a-z0-9.-]+):(\d+)$/.exec(value);
    if (!m) {
      problems.add(where, `${label}: ${key}=${value} is not host:port`);
      return;
    }
    const host = m[1]!.split('.')[0]!;
    if (!serviceTargets(host, m[2]!)) problems.add(where, `${label}: ${key}=${value} does not match any Service ${host} with port ${m[2]}`);
  };
  for (const cm of configMaps.values()) {
    for (const [key, value] of Object.entries(obj(cm.o.data))) {
      if (typeof value === 'string') checkAddr(cm.doc.where, `ConfigMap/${cm.name}`, key, value);
    }
  }

  for (const w of workloads) {
    const label = `${w.kind}/${w.name}`;
    const spec = obj(w.o.spec);
    const podLabels = obj(obj(obj(spec.template).metadata).labels);
    const matchLabels = obj(obj(spec.selector).matchLabels);
    if (!matchesSelector(podLabels, matchLabels)) {
      problems.add(w.doc.where, `${label}: spec.selector.matchLabels do not match the pod template labels`);
    }
    const podSpec = podSpecOf(w) ?? {};
    const podSec = obj(podSpec.securityContext);
    const containers = containersOf(w);
    if (containers.length === 0) problems.add(w.doc.where, `${label}: no containers`);

    for (const ci of containers) {
      const c = ci.c;
      const cl = `${label} container ${String(c.name)}`;
      const sec = obj(c.securityContext);
      if (sec.runAsNonRoot !== true && podSec.runAsNonRoot !== true) problems.add(w.doc.where, `${cl}: runAsNonRoot must be true`);
      if ((sec.runAsUser ?? podSec.runAsUser) === 0) problems.add(w.doc.where, `${cl}: must not run as uid 0`);
      if (sec.readOnlyRootFilesystem !== true) problems.add(w.doc.where, `${cl}: securityContext.readOnlyRootFilesystem must be true`);
      if (sec.allowPrivilegeEscalation !== false) problems.add(w.doc.where, `${cl}: securityContext.allowPrivilegeEscalation must be false`);
      const res = obj(c.resources);
      for (const part of ['requests', 'limits'] as const) {
        for (const r of ['cpu', 'memory']) {
          if (obj(res[part])[r] === undefined) problems.add(w.doc.where, `${cl}: resources.${part}.${r} is required`);
        }
      }
      for (const probe of ['readinessProbe', 'livenessProbe'] as const) {
        if (!isObj(c[probe])) problems.add(w.doc.where, `${cl}: ${probe} is required`);
      }
      for (const probe of ['readinessProbe', 'livenessProbe', 'startupProbe'] as const) {
        const p = obj(c[probe]);
        const port = obj(p.grpc).port ?? obj(p.httpGet).port ?? obj(p.tcpSocket).port;
        if (isObj(c[probe]) && port !== undefined && !resolvePort(port, ci.ports)) {
          problems.add(w.doc.where, `${cl}: ${probe} port ${JSON.stringify(port)} is not one of the container's ports`);
        }
      }
      const argv = [...arr(c.command), ...arr(c.args)].map(String);
      if (argv.length > 0) checkNodeCommand(repo, argv, `${w.doc.where} (${cl})`, problems);
      else problems.add(w.doc.where, `${cl}: command is required (the image runs the gateway by default)`);

      for (const e of arr(c.env).filter(isObj)) {
        const name = str(e.name) ?? '?';
        const value = str(e.value);
        if (value !== undefined && /^(GRPC|HTTP)_PORT$/.test(name) && !ci.ports.some((p) => String(p.containerPort) === value)) {
          problems.add(w.doc.where, `${cl}: ${name}=${value} is not one of the container's ports`);
        }
        if (value !== undefined) checkAddr(w.doc.where, cl, name, value);
        if (value !== undefined && /SECRET|PASSWORD|TOKEN|_KEY$/.test(name)) {
          problems.add(w.doc.where, `${cl}: ${name} must come from a Secret (valueFrom.secretKeyRef), not a literal value`);
        }
        const from = obj(e.valueFrom);
        const skr = obj(from.secretKeyRef);
        if (skr.name !== undefined && skr.optional !== true) checkSecretKey(w.doc.where, `${cl} env ${name}`, String(skr.name), String(skr.key));
        const ckr = obj(from.configMapKeyRef);
        if (ckr.name !== undefined && ckr.optional !== true) {
          const cm = configMaps.get(String(ckr.name));
          if (!cm) problems.add(w.doc.where, `${cl} env ${name}: ConfigMap ${String(ckr.name)} is not defined in ${kfile}`);
          else if (!keyExists(cm, String(ckr.key))) problems.add(w.doc.where, `${cl} env ${name}: key ${String(ckr.key)} is not in ConfigMap ${cm.name}`);
        }
      }
      for (const ef of arr(c.envFrom).filter(isObj)) {
        const cmr = obj(ef.configMapRef);
        if (cmr.name !== undefined && cmr.optional !== true && !configMaps.has(String(cmr.name))) {
          problems.add(w.doc.where, `${cl}: envFrom ConfigMap ${String(cmr.name)} is not defined in ${kfile}`);
        }
        const sr = obj(ef.secretRef);
        if (sr.name !== undefined && sr.optional !== true && !secrets.has(String(sr.name)) && !exampleSecrets.has(String(sr.name))) {
          problems.add(w.doc.where, `${cl}: envFrom Secret ${String(sr.name)} is neither in ${kfile} nor described by an example Secret`);
        }
      }
    }

    const ports = containers.flatMap((ci) => ci.ports);
    const selecting = services.filter((s) => matchesSelector(podLabels, obj(obj(s.o.spec).selector)));
    if (ports.length > 0 && selecting.length === 0) problems.add(w.doc.where, `${label}: exposes ports but no Service selects its pods`);
    for (const p of ports) {
      const targeted = selecting.some((s) =>
        arr(obj(s.o.spec).ports).some((sp) => {
          const target = obj(sp).targetPort ?? obj(sp).port;
          return target === p.containerPort || (p.name !== undefined && target === p.name);
        }),
      );
      if (selecting.length > 0 && !targeted) {
        problems.add(w.doc.where, `${label}: container port ${p.name ?? ''}${p.name ? '/' : ''}${p.containerPort} is not the targetPort of any Service selecting it`);
      }
    }
  }

  for (const s of services) {
    const spec = obj(s.o.spec);
    const selector = obj(spec.selector);
    const targets = workloads.filter((w) => matchesSelector(obj(obj(obj(obj(w.o.spec).template).metadata).labels), selector));
    if (targets.length === 0) {
      problems.add(s.doc.where, `Service/${s.name}: selector ${JSON.stringify(selector)} matches no Deployment in ${kfile}`);
      continue;
    }
    for (const [i, sp] of arr(spec.ports).entries()) {
      const target = obj(sp).targetPort ?? obj(sp).port;
      for (const w of targets) {
        const ports = containersOf(w).flatMap((ci) => ci.ports);
        if (!resolvePort(target, ports)) {
          problems.add(
            s.doc.where,
            `Service/${s.name}: ports[${i}].targetPort ${JSON.stringify(target)} is not a container port of ${w.kind}/${w.name} (${ports.map((p) => `${p.name ?? ''}:${p.containerPort}`).join(', ') || 'none'})`,
          );
        }
      }
    }
  }
}

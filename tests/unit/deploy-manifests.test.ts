// The deployment files under deploy/, rendered and checked against the schemas they must satisfy:
// every Kubernetes object against the Kubernetes OpenAPI schemas that kubernetes-models ships (and
// the ServiceMonitor against the prometheus-operator CRD's), offline; unknown fields (which
// `kubectl apply` refuses) by the TypeScript compiler's excess-property check against the same
// models' types; then what the issue asks of them, and that they agree with each other (selectors,
// ports, Secret keys, the image's commands). The base is plain objects (a kustomization of resources
// only), so reading its files is its rendering; `kubectl kustomize` renders the base too (which must
// give the same objects) and the example overlay.
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'
import { parseAllDocuments } from 'yaml'
import { metricsRegistry } from '@/lib/observability/metrics'

type K8sObject = { apiVersion: string; kind: string; metadata: { name: string; labels?: Record<string, string> }; spec?: any; data?: Record<string, string> } // eslint-disable-line @typescript-eslint/no-explicit-any

const ROOT = path.resolve(__dirname, '../..')
const BASE = path.join(ROOT, 'deploy/kubernetes/base')
const OVERLAY = path.join(ROOT, 'deploy/kubernetes/overlays/example')

function parseYaml(text: string, where: string): K8sObject[] {
  return parseAllDocuments(text, { merge: true })
    .map((doc) => {
      if (doc.errors.length) throw new Error(`${where}: ${doc.errors[0].message}`)
      return doc.toJS() as K8sObject
    })
    .filter(Boolean)
}

/** The base as applied: every file its kustomization lists, in order (it uses no transformers). */
function renderBase(): K8sObject[] {
  const kustomization = parseYaml(fs.readFileSync(path.join(BASE, 'kustomization.yaml'), 'utf8'), 'kustomization.yaml')[0] as unknown as Record<string, unknown>
  expect(Object.keys(kustomization).sort(), 'the base kustomization lists resources only').toEqual(['apiVersion', 'kind', 'resources'])
  return (kustomization.resources as string[]).flatMap((file) => parseYaml(fs.readFileSync(path.join(BASE, file), 'utf8'), file))
}

const kubectl = (() => {
  try {
    execFileSync('kubectl', ['version', '--client'], { stdio: 'ignore' })
    return true
  } catch {
    return false
  }
})()
const kustomize = (dir: string) => parseYaml(execFileSync('kubectl', ['kustomize', dir], { encoding: 'utf8' }), dir)

/** Where kubernetes-models keeps the model of an apiVersion (its classes and their I-interfaces). */
function modelModule(apiVersion: string): string {
  if (apiVersion === 'monitoring.coreos.com/v1') return '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1'
  return `kubernetes-models/${apiVersion}`
}

/** Validates against the JSON schema kubernetes-models generated from the Kubernetes OpenAPI document (or the CRD). */
async function schemaErrors(object: K8sObject): Promise<string | null> {
  const models = (await import(modelModule(object.apiVersion))) as Record<string, new (data: unknown) => { validate(): void }>
  const Model = models[object.kind]
  if (!Model) return `no model for ${object.apiVersion} ${object.kind}`
  try {
    new Model(object).validate()
    return null
  } catch (e) {
    return (e as Error).message
  }
}

/** Unknown fields at any depth, as the TypeScript compiler sees them against the models' types. */
function unknownFieldErrors(objects: K8sObject[]): string[] {
  const file = path.join(ROOT, 'deploy', '__manifests_typecheck__.ts')
  const imports = new Map<string, Set<string>>()
  for (const o of objects) imports.set(modelModule(o.apiVersion), (imports.get(modelModule(o.apiVersion)) ?? new Set()).add(`I${o.kind}`))
  const source = [
    ...[...imports].map(([module, names]) => `import type { ${[...names].join(', ')} } from '${module}'`),
    ...objects.map((o, i) => `export const object${i}: I${o.kind} = ${JSON.stringify(o)}`),
  ].join('\n')
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    types: [],
  }
  const host = ts.createCompilerHost(options)
  const { getSourceFile, fileExists, readFile } = host
  host.getSourceFile = (name, version, ...rest) =>
    name === file ? ts.createSourceFile(name, source, version) : getSourceFile.call(host, name, version, ...rest)
  host.fileExists = (name) => name === file || fileExists.call(host, name)
  host.readFile = (name) => (name === file ? source : readFile.call(host, name))
  const program = ts.createProgram([file], options, host)
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const where = d.file && d.start !== undefined ? `object${/object(\d+)/.exec(d.file.text.slice(0, d.start).split('\n').pop() ?? '')?.[1] ?? '?'}: ` : ''
    return where + ts.flattenDiagnosticMessageText(d.messageText, ' ')
  })
}

const base = renderBase()
const find = (kind: string, name: string) => {
  const o = base.find((x) => x.kind === kind && x.metadata.name === name)
  expect(o, `${kind} ${name}`).toBeDefined()
  return o!
}
const matches = (selector: Record<string, string>, labels: Record<string, string> = {}) => Object.entries(selector).every(([k, v]) => labels[k] === v)

/** The commands of the image's entrypoint (its case labels). */
const imageCommands = new Set(
  [...fs.readFileSync(path.join(ROOT, 'scripts/toolroom-entrypoint.sh'), 'utf8').matchAll(/^\s+([a-z|-]+)\)/gm)].flatMap((m) => m[1].split('|')),
)

describe('Kubernetes manifests', () => {
  it('every object of the base is valid against the Kubernetes schemas (the ServiceMonitor against its CRD’s)', async () => {
    expect(base.length).toBeGreaterThanOrEqual(15)
    const errors = (await Promise.all(base.map(async (o) => [o, await schemaErrors(o)] as const)))
      .filter(([, e]) => e)
      .map(([o, e]) => `${o.kind}/${o.metadata.name}: ${e}`)
    expect(errors).toEqual([])
  })

  it('no object has a field the schemas do not know (kubectl apply would refuse it)', () => {
    expect(unknownFieldErrors(base)).toEqual([])
  }, 60_000)

  it('the checks can fail: a wrong type, a misspelt field and a bad ServiceMonitor interval are caught', async () => {
    const web = structuredClone(find('Deployment', 'toolroom-web'))
    web.spec.template.spec.containers[0].ports[0].containerPort = 'http'
    expect(await schemaErrors(web)).toMatch(/containerPort must be integer/)
    const typo = structuredClone(find('Deployment', 'toolroom-gateway'))
    typo.spec.template.spec.containers[0].securityContext = { readOnlyRootFileSystem: true }
    expect(unknownFieldErrors([typo]).join('\n')).toMatch(/readOnlyRootFileSystem/)
    const monitor = structuredClone(find('ServiceMonitor', 'toolroom'))
    monitor.spec.endpoints[0].interval = 'often'
    expect(await schemaErrors(monitor)).toMatch(/interval must match pattern/)
  }, 60_000)

  it('web, gateway and worker run the image’s commands with replicas, resource requests, non-root, a read-only root filesystem and both probes', () => {
    const expected = { 'toolroom-web': 'web', 'toolroom-gateway': 'gateway', 'toolroom-worker': 'worker' }
    for (const [name, command] of Object.entries(expected)) {
      const d = find('Deployment', name)
      expect(d.spec.replicas, name).toBeGreaterThanOrEqual(2)
      const pod = d.spec.template.spec
      expect(matches(d.spec.selector.matchLabels, d.spec.template.metadata.labels), `${name} selects its pods`).toBe(true)
      expect(pod.securityContext.runAsNonRoot, name).toBe(true)
      expect(pod.automountServiceAccountToken, name).toBe(false)
      for (const c of pod.containers) {
        expect(c.args, name).toEqual([command])
        expect(imageCommands.has(c.args[0]), `${c.args[0]} is a command of the image`).toBe(true)
        expect(c.resources.requests.cpu && c.resources.requests.memory, name).toBeTruthy()
        expect(c.securityContext, name).toMatchObject({ readOnlyRootFilesystem: true, allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } })
        const ports = new Set(c.ports.map((p: { name: string }) => p.name))
        for (const probe of ['readinessProbe', 'livenessProbe']) {
          expect(c[probe]?.httpGet?.path, `${name} ${probe}`).toBeTruthy()
          expect(ports.has(c[probe].httpGet.port), `${name} ${probe} port`).toBe(true)
        }
        // The database URL and the secret key come from the Secret, never inline.
        for (const variable of ['DATABASE_URL', 'TOOLROOM_SECRET_KEY'])
          expect(c.env.find((e: { name: string }) => e.name === variable)?.valueFrom?.secretKeyRef?.name, `${name} ${variable}`).toBe('toolroom')
        expect(
          c.env.every((e: { value?: string }) => !/postgres(ql)?:\/\//.test(e.value ?? '')),
          name,
        ).toBe(true)
        // Whatever must be writable is a volume: the root filesystem is not.
        const mounts = c.volumeMounts.map((m: { mountPath: string }) => m.mountPath)
        expect(mounts, name).toContain('/tmp')
        if (command === 'web') expect(mounts).toContain('/app/.next/cache')
      }
    }
  })

  it('a migration Job runs the image’s migrate command once, with the database URL from the Secret', () => {
    const job = base.find((o) => o.kind === 'Job')!
    expect(job.metadata.name).toMatch(/^toolroom-migrate-/)
    const c = job.spec.template.spec.containers[0]
    expect(c.args).toEqual(['migrate'])
    expect(job.spec.template.spec.restartPolicy).toBe('Never')
    expect(c.env.find((e: { name: string }) => e.name === 'DATABASE_URL').valueFrom.secretKeyRef).toEqual({ name: 'toolroom', key: 'database-url' })
    expect(c.securityContext.readOnlyRootFilesystem).toBe(true)
  })

  it('Services select their Deployments’ pods on ports the containers have; the Ingress sends /mcp to the gateway and the rest to the web app', () => {
    const deployments = base.filter((o) => o.kind === 'Deployment')
    for (const service of base.filter((o) => o.kind === 'Service')) {
      const target = deployments.find((d) => matches(service.spec.selector, d.spec.template.metadata.labels))
      expect(target, `Service ${service.metadata.name}`).toBeDefined()
      const containerPorts = new Set(target!.spec.template.spec.containers.flatMap((c: { ports: Array<{ name: string }> }) => c.ports.map((p) => p.name)))
      for (const port of service.spec.ports) expect(containerPorts.has(port.targetPort), `${service.metadata.name} ${port.name}`).toBe(true)
    }
    const ingress = find('Ingress', 'toolroom')
    const paths = ingress.spec.rules[0].http.paths
    const backend = (p: string) => paths.find((x: { path: string }) => x.path === p)?.backend.service
    expect(backend('/mcp')).toEqual({ name: 'toolroom-gateway', port: { name: 'http' } })
    expect(backend('/')).toEqual({ name: 'toolroom-web', port: { name: 'http' } })
    for (const p of paths)
      expect(find('Service', p.backend.service.name).spec.ports.some((x: { name: string }) => x.name === p.backend.service.port.name)).toBe(true)
  })

  it('each Deployment has a PodDisruptionBudget; the gateway an HPA; the ServiceMonitor scrapes every process’s metrics port', () => {
    for (const d of base.filter((o) => o.kind === 'Deployment')) {
      const pdb = base.find((o) => o.kind === 'PodDisruptionBudget' && matches(o.spec.selector.matchLabels, d.spec.template.metadata.labels))
      expect(pdb, `PDB for ${d.metadata.name}`).toBeDefined()
      expect(pdb!.spec.minAvailable).toBeLessThan(d.spec.replicas)
    }
    const hpa = find('HorizontalPodAutoscaler', 'toolroom-gateway')
    expect(hpa.spec.scaleTargetRef).toEqual({ apiVersion: 'apps/v1', kind: 'Deployment', name: 'toolroom-gateway' })
    expect(hpa.spec.minReplicas).toBe(find('Deployment', 'toolroom-gateway').spec.replicas)
    const monitor = find('ServiceMonitor', 'toolroom')
    const scraped = base.filter((o) => o.kind === 'Service' && matches(monitor.spec.selector.matchLabels, o.metadata.labels))
    expect(scraped.map((s) => s.metadata.name).sort()).toEqual(['toolroom-gateway', 'toolroom-web', 'toolroom-worker'])
    for (const s of scraped) expect(s.spec.ports.some((p: { name: string }) => p.name === monitor.spec.endpoints[0].port)).toBe(true)
    // Metrics are served where the containers are told to serve them.
    const config = find('ConfigMap', 'toolroom')
    expect(config.data).toMatchObject({ TOOLROOM_METRICS_PORT: '9464', TOOLROOM_METRICS_HOST: '0.0.0.0', LOG_FORMAT: 'json' })
    for (const d of base.filter((o) => o.kind === 'Deployment'))
      expect(d.spec.template.spec.containers[0].ports.find((p: { name: string }) => p.name === 'metrics').containerPort).toBe(9464)
  })

  it('kubectl kustomize renders the base to the same objects, and the example overlay to valid ones', async () => {
    // A missing kubectl fails this rather than skipping it (.ci/run installs one when it lacks it).
    expect(kubectl, 'kubectl is not on this machine').toBe(true)
    const key = (o: K8sObject) => `${o.kind}/${o.metadata.name}`
    const rendered = kustomize(BASE)
    expect(rendered.map(key).sort()).toEqual(base.map(key).sort())
    for (const o of rendered) expect(o, key(o)).toEqual(base.find((b) => key(b) === key(o)))
    const overlay = kustomize(OVERLAY)
    expect(overlay).toHaveLength(base.length)
    const errors = (await Promise.all(overlay.map(async (o) => [o, await schemaErrors(o)] as const))).filter(([, e]) => e).map(([o, e]) => `${key(o)}: ${e}`)
    expect(errors).toEqual([])
    expect(unknownFieldErrors(overlay)).toEqual([])
    expect(overlay.find((o) => o.kind === 'Ingress')!.spec.rules[0].host).toBe('tools.acme.example')
  }, 60_000)
})

describe('compose file', () => {
  interface ComposeService {
    command: string[]
    read_only: boolean
    user: string
    image?: string
    environment: Record<string, string>
    depends_on?: Record<string, { condition: string }>
  }
  const compose = parseYaml(fs.readFileSync(path.join(ROOT, 'deploy/compose/compose.yaml'), 'utf8'), 'compose.yaml')[0] as unknown as {
    services: Record<string, ComposeService>
  }

  it('runs the image’s commands (migrations first), non-root and read-only, with secrets from the environment, and no database of its own', () => {
    expect(Object.keys(compose.services).sort()).toEqual(['gateway', 'migrate', 'web', 'worker'])
    for (const [name, service] of Object.entries(compose.services)) {
      expect(imageCommands.has(service.command[0]), name).toBe(true)
      expect(service.read_only, name).toBe(true)
      expect(service.user, name).toBe('1000:1000')
      expect(service.environment.DATABASE_URL, name).toMatch(/^\$\{DATABASE_URL:\?/)
      expect(service.environment.TOOLROOM_SECRET_KEY, name).toMatch(/^\$\{TOOLROOM_SECRET_KEY:\?/)
      expect(String(service.image), name).not.toMatch(/postgres/)
    }
    for (const name of ['web', 'worker']) expect(compose.services[name].depends_on?.migrate.condition).toBe('service_completed_successfully')
    expect(compose.services.gateway.environment.TOOLROOM_GATEWAY_UPSTREAM).toBe('http://web:3000')
  })
})

describe('Grafana dashboard', () => {
  it('is valid JSON whose every query names metrics Toolroom exports (or Node’s process metrics)', async () => {
    const dashboard = JSON.parse(fs.readFileSync(path.join(ROOT, 'deploy/grafana/toolroom-dashboard.json'), 'utf8'))
    const exported = new Set<string>()
    for (const m of await metricsRegistry().getMetricsAsJSON()) {
      exported.add(m.name)
      if (m.type === ('histogram' as never)) for (const suffix of ['_bucket', '_sum', '_count']) exported.add(m.name + suffix)
    }
    const exprs = dashboard.panels.flatMap((p: { targets?: Array<{ expr: string }> }) => (p.targets ?? []).map((t) => t.expr))
    expect(exprs.length).toBeGreaterThan(15)
    for (const expr of exprs) {
      const names = [...expr.matchAll(/\b((?:toolroom|process|nodejs)_[a-z0-9_]+)\b/g)].map((m: RegExpMatchArray) => m[1])
      expect(names.length, expr).toBeGreaterThan(0)
      for (const name of names) if (name.startsWith('toolroom_')) expect(exported.has(name), `${name} in ${expr}`).toBe(true)
    }
  })
})

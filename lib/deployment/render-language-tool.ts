// What a LanguageTool's `deploymentMode` means here (docs/design/registry-api.md#deploymentmode):
// Toolroom runs no workloads, it writes them. `service`: a Deployment and a Service whose cluster
// address is exactly the endpoint Toolroom, discovery and an agent's config.yaml use. `sidecar`: the
// container to add to the agent's pod, which the agent reaches on localhost. Pure; the objects are
// typed by kubernetes-models (an unknown field does not compile) and held to the Kubernetes schemas in
// tests/unit/render-language-tool.test.ts.
import type { IDeployment } from 'kubernetes-models/apps/v1'
import type { IContainer, ISecurityContext, IService } from 'kubernetes-models/v1'
import { AppError } from '@/lib/errors/app-error'
import { languageToolEndpoint, type LanguageToolSpec } from '@/lib/manifests/specs/language-tool'

export interface RenderedLanguageTool {
  mode: 'service' | 'sidecar'
  /** Where the server is reached: Toolroom and agents (service), or the agent in whose pod it runs (sidecar). */
  endpoint: string
  /** service: a Kubernetes List of the Deployment and the Service, for `kubectl apply -f`. */
  manifest?: { apiVersion: 'v1'; kind: 'List'; items: Array<IDeployment | IService> }
  /** sidecar: one entry for the agent pod's `spec.containers`. */
  container?: IContainer
}

/** The endpoint an agent's own runtime reaches the server at: a sidecar shares its pod. */
export function agentSideEndpoint(name: string, namespace: string, spec: LanguageToolSpec): string {
  return spec.deploymentMode === 'sidecar' ? sidecarEndpoint(spec.port) : languageToolEndpoint(name, namespace, spec)
}

const sidecarEndpoint = (port: number) => `http://localhost:${port}`

// Restricted Pod Security Standard: what a server from a third-party image gets, whatever it asks.
const CONTAINER_SECURITY: ISecurityContext = {
  runAsNonRoot: true,
  allowPrivilegeEscalation: false,
  readOnlyRootFilesystem: true,
  capabilities: { drop: ['ALL'] },
  seccompProfile: { type: 'RuntimeDefault' },
}

export function renderLanguageTool(name: string, namespace: string, spec: LanguageToolSpec): RenderedLanguageTool {
  if (!spec.image)
    throw new AppError('CONFLICT', `LanguageTool "${namespace}/${name}" has no spec.image: it runs elsewhere (spec.endpoint), there is nothing to render`, [
      { field: 'spec.image', rule: 'required', message: 'is required to render a workload' },
    ])
  const labels = { 'app.kubernetes.io/name': name, 'app.kubernetes.io/component': 'mcp-server', 'app.kubernetes.io/managed-by': 'toolroom' }
  const container: IContainer = {
    name: `mcp-${name}`.slice(0, 63).replace(/-+$/, ''),
    image: spec.image,
    ports: [{ name: 'mcp', containerPort: spec.port, protocol: 'TCP' }],
    securityContext: CONTAINER_SECURITY,
  }
  if (spec.deploymentMode === 'sidecar') return { mode: 'sidecar', endpoint: sidecarEndpoint(spec.port), container }

  const serviceAddress = `http://${name}.${namespace}.svc.cluster.local:${spec.port}`
  // Toolroom calls spec.endpoint when it is set: a Service rendered elsewhere would be one nobody calls.
  if (languageToolEndpoint(name, namespace, spec) !== serviceAddress)
    throw new AppError(
      'CONFLICT',
      `LanguageTool "${namespace}/${name}" is reached at spec.endpoint, not at the Service a render would make (${serviceAddress})`,
      [{ field: 'spec.endpoint', rule: 'not-allowed', message: `must be unset (or ${serviceAddress}) for Toolroom to call the Service it renders` }],
    )
  const deployment: IDeployment = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace, labels },
    spec: {
      replicas: 1,
      selector: { matchLabels: { 'app.kubernetes.io/name': name } },
      template: {
        metadata: { labels },
        spec: {
          automountServiceAccountToken: false,
          securityContext: { runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } },
          containers: [container],
        },
      },
    },
  }
  const service: IService = {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name, namespace, labels },
    spec: { selector: { 'app.kubernetes.io/name': name }, ports: [{ name: 'mcp', port: spec.port, targetPort: 'mcp', protocol: 'TCP' }] },
  }
  return { mode: 'service', endpoint: serviceAddress, manifest: { apiVersion: 'v1', kind: 'List', items: [deployment, service] } }
}

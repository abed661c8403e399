// A LanguageTool's deploymentMode rendered (lib/deployment/render-language-tool.ts): every object
// against the Kubernetes OpenAPI schemas kubernetes-models ships, offline, as deploy/ is checked
// (tests/unit/deploy-manifests.test.ts); the Service's address is the endpoint Toolroom uses; and
// what cannot be rendered is refused naming the field.
import { describe, expect, it } from 'vitest'
import { Deployment, type IDeployment } from 'kubernetes-models/apps/v1'
import { Container, type IService, Service } from 'kubernetes-models/v1'
import { agentSideEndpoint, renderLanguageTool } from '@/lib/deployment/render-language-tool'
import { AppError } from '@/lib/errors/app-error'
import { languageToolEndpoint, languageToolSpec } from '@/lib/manifests/specs/language-tool'

const spec = (fields: Record<string, unknown>) => languageToolSpec.parse(fields)
const validates = (make: () => { validate(): void }) => expect(() => make().validate()).not.toThrow()

describe('service mode', () => {
  const name = 'github'
  const namespace = 'support'
  const s = spec({ image: 'ghcr.io/acme/github-mcp:1.4.2', port: 9000 })
  const rendered = renderLanguageTool(name, namespace, s)
  const [deployment, service] = rendered.manifest!.items as [IDeployment, IService]

  it('writes a Deployment and a Service that the Kubernetes schemas accept', () => {
    expect(rendered.mode).toBe('service')
    expect(rendered.manifest!.kind).toBe('List')
    validates(() => new Deployment(deployment))
    validates(() => new Service(service))
  })

  it("puts the Service exactly at the endpoint Toolroom and an agent's config.yaml use", () => {
    const port = service.spec!.ports![0]
    const address = `http://${service.metadata!.name}.${service.metadata!.namespace}.svc.cluster.local:${port.port}`
    expect(address).toBe(languageToolEndpoint(name, namespace, s))
    expect(rendered.endpoint).toBe(address)
    expect(agentSideEndpoint(name, namespace, s)).toBe(address)
    // The Service reaches the Deployment's pods on the container's port.
    const pod = deployment.spec!.template
    expect(pod.metadata!.labels).toMatchObject(service.spec!.selector!)
    expect(pod.spec!.containers[0].ports).toEqual([expect.objectContaining({ name: port.targetPort, containerPort: 9000 })])
  })

  it('refuses a LanguageTool reached elsewhere (spec.endpoint) or with nothing to run (no spec.image), naming the field', () => {
    const refusal = (f: () => unknown) => {
      try {
        f()
      } catch (e) {
        return e as AppError
      }
      throw new Error('not refused')
    }
    const elsewhere = refusal(() => renderLanguageTool(name, namespace, spec({ image: 'x/y:1', endpoint: 'https://github-mcp.example.com/mcp' })))
    expect(elsewhere.code).toBe('CONFLICT')
    expect(elsewhere.errors).toEqual([expect.objectContaining({ field: 'spec.endpoint' })])
    const imageless = refusal(() => renderLanguageTool(name, namespace, spec({ endpoint: 'https://github-mcp.example.com/mcp' })))
    expect(imageless.errors).toEqual([expect.objectContaining({ field: 'spec.image', rule: 'required' })])
    // The Service's own address as spec.endpoint is the same place.
    expect(renderLanguageTool(name, namespace, spec({ image: 'x/y:1', port: 9000, endpoint: 'http://github.support.svc.cluster.local:9000' })).mode).toBe(
      'service',
    )
  })
})

describe('sidecar mode', () => {
  it("writes the container for the agent's pod, reached on localhost, which the Kubernetes schema accepts", () => {
    const s = spec({ image: 'registry.example/mem0-mcp@sha256:' + 'a'.repeat(64), port: 8081, deploymentMode: 'sidecar' })
    const rendered = renderLanguageTool('a'.repeat(63), 'agents', s)
    expect(rendered.mode).toBe('sidecar')
    expect(rendered.manifest).toBeUndefined()
    validates(() => new Container(rendered.container!))
    expect(rendered.container!.name.length).toBeLessThanOrEqual(63)
    expect(rendered.endpoint).toBe('http://localhost:8081')
    expect(agentSideEndpoint('mem0', 'agents', s)).toBe(rendered.endpoint)
  })
})

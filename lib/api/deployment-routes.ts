// A LanguageTool's workload, written for the operator to apply: Toolroom runs none itself
// (lib/deployment/render-language-tool.ts, docs/design/registry-api.md#deploymentmode).
import type { RouteContract } from '@/lib/http/contract'
import { route } from '@/lib/http/route'
import { z } from '@/lib/http/zod'
import { renderLanguageTool } from '@/lib/deployment/render-language-tool'
import type { LanguageToolSpec } from '@/lib/manifests/specs/language-tool'
import { getRow } from '@/lib/resources/resource-store'
import { idParams, namespaceQuery } from './schemas'

const kubernetesObject = z.record(z.string(), z.unknown())

export const renderedLanguageToolSchema = z
  .object({
    mode: z.enum(['service', 'sidecar']),
    endpoint: z
      .string()
      .openapi({ description: "Where the rendered server is reached: the Service's address (service), localhost in the agent's pod (sidecar)" }),
    manifest: z
      .object({ apiVersion: z.literal('v1'), kind: z.literal('List'), items: z.array(kubernetesObject) })
      .optional()
      .openapi({ description: 'service: the Deployment and the Service, for kubectl apply -f' }),
    container: kubernetesObject.optional().openapi({ description: "sidecar: the entry to add to the agent pod's spec.containers" }),
  })
  .openapi('RenderedLanguageTool')

export const DEPLOYMENT_CONTRACTS = {
  renderLanguageTool: {
    method: 'GET',
    path: '/api/v1/languagetools/{id}/deployment',
    operationId: 'renderLanguageTool',
    tags: ['LanguageTool'],
    access: 'read',
    summary: "The Kubernetes workload of a LanguageTool's deploymentMode: Deployment and Service (service), or the agent pod's container (sidecar)",
    params: idParams,
    query: namespaceQuery,
    response: renderedLanguageToolSchema,
    yamlAnswer: true,
    etag: { from: 'registry' },
  },
} satisfies Record<string, RouteContract>

export const deploymentRoutes = {
  renderLanguageTool: route(DEPLOYMENT_CONTRACTS.renderLanguageTool, async ({ params, query }) => {
    const row = await getRow('LanguageTool', params.id, query.namespace)
    return renderLanguageTool(row.name, row.namespace, row.spec as LanguageToolSpec)
  }),
}

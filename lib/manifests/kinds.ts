// The manifest kinds Toolroom accepts: their apiVersions, URL plurals, name rules and spec schemas.
import { z } from '@/lib/http/zod'
import { canonicalToolId, dnsLabel } from './specs/common'
import { connectorSpec } from './specs/connector'
import { agentSpec, unitSpec } from './specs/fleet'
import { identityProviderSpec } from './specs/identity-provider'
import { languageToolSpec } from './specs/language-tool'
import { policySpec } from './specs/policy'
import { secretSpec } from './specs/secret'
import { sideEffectPolicySpec } from './specs/side-effect-policy'
import { toolSpec } from './specs/tool'

export const TOOLROOM_API_VERSION = 'toolroom.dev/v1alpha1'

const connectorSlug = z
  .string()
  .max(63)
  .regex(/^[a-z][a-z0-9_]*$/, 'must be a connector slug: lowercase snake_case starting with a letter (it becomes a tool namespace)')

export const KIND_DEFINITIONS = {
  Tool: {
    plural: 'tools',
    apiVersions: [TOOLROOM_API_VERSION, 'joch.dev/v1alpha1'],
    name: canonicalToolId,
    spec: toolSpec,
  },
  LanguageTool: {
    plural: 'languagetools',
    apiVersions: [TOOLROOM_API_VERSION, 'langop.io/v1alpha1', 'joch.dev/v1alpha1'],
    name: dnsLabel('metadata.name'),
    spec: languageToolSpec,
  },
  Connector: { plural: 'connectors', apiVersions: [TOOLROOM_API_VERSION], name: connectorSlug, spec: connectorSpec },
  Unit: { plural: 'units', apiVersions: [TOOLROOM_API_VERSION], name: dnsLabel('metadata.name'), spec: unitSpec },
  Agent: { plural: 'agents', apiVersions: [TOOLROOM_API_VERSION], name: dnsLabel('metadata.name'), spec: agentSpec },
  Secret: { plural: 'secrets', apiVersions: [TOOLROOM_API_VERSION], name: dnsLabel('metadata.name'), spec: secretSpec },
  SideEffectPolicy: {
    plural: 'sideeffectpolicies',
    apiVersions: [TOOLROOM_API_VERSION],
    name: z.enum(sideEffectPolicySpec.shape.level.options, 'the name of a SideEffectPolicy must be its level'),
    spec: sideEffectPolicySpec,
  },
  Policy: { plural: 'policies', apiVersions: [TOOLROOM_API_VERSION, 'joch.dev/v1alpha1'], name: dnsLabel('metadata.name'), spec: policySpec },
  IdentityProvider: { plural: 'identityproviders', apiVersions: [TOOLROOM_API_VERSION], name: dnsLabel('metadata.name'), spec: identityProviderSpec },
} as const

export type Kind = keyof typeof KIND_DEFINITIONS
export const KINDS = Object.keys(KIND_DEFINITIONS) as Kind[]

/** Other names a kind is known by in the seeds' ecosystems (joch calls a LanguageTool an MCPServer). */
export const KIND_ALIASES: Record<string, Kind> = { MCPServer: 'LanguageTool' }

export function resolveKind(kind: string): Kind | null {
  if (kind in KIND_DEFINITIONS) return kind as Kind
  return KIND_ALIASES[kind] ?? null
}

const labelMap = z
  .record(
    z
      .string()
      .max(317)
      .regex(/^([a-z0-9.-]+\/)?[A-Za-z0-9]([A-Za-z0-9._-]*[A-Za-z0-9])?$/, 'label keys are "[prefix/]name" of letters, digits, ".", "_" and "-"'),
    z.string().max(63),
  )
  .refine((m) => Object.keys(m).length <= 64, 'at most 64 labels')

const annotationMap = z.record(z.string().max(317), z.string().max(65536)).refine((m) => Object.keys(m).length <= 64, 'at most 64 annotations')

export function metadataSchema(kind: Kind) {
  return z.strictObject({
    name: KIND_DEFINITIONS[kind].name,
    namespace: dnsLabel('metadata.namespace').default('default'),
    labels: labelMap.default({}),
    annotations: annotationMap.default({}),
  })
}

export type Metadata = z.infer<ReturnType<typeof metadataSchema>>

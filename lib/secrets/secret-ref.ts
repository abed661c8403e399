// Where a `secretRef` may point. Operators may not read Secrets, so they may not point a resource they
// can change at one they could not read either: a reference resolves only in the namespace of the
// resource that holds it (`name`, or `namespace/name` naming that same namespace). There are no
// cross-namespace grants: a Secret needed in two namespaces is created in both. Pure; applied at
// validation (apply, REST create/replace) and again by the one resolver every reader goes through
// (discovery, the gateway), so a reference stored before the rule, or written around validation,
// still opens nothing.

import { parseRef, type ResourceName } from '@/lib/refs/resource-ref'

export const SECRET_REF_RULE = 'secret-namespace'

export type SecretRefTarget = ResourceName

/** Why `ref` may not be resolved from `referrerNamespace`, or null when it may. */
export function secretRefProblem(ref: string, referrerNamespace: string): string | null {
  const { namespace } = parseRef(ref, referrerNamespace)
  if (namespace === referrerNamespace) return null
  return `a secretRef names a Secret in the referrer's own namespace ("${referrerNamespace}"), not "${namespace}": create the Secret in "${referrerNamespace}"`
}

export class SecretRefError extends Error {
  readonly rule = SECRET_REF_RULE
}

/** The Secret `ref` names, seen from `referrerNamespace`; throws when the rule forbids it. */
export function resolveSecretRef(ref: string, referrerNamespace: string): SecretRefTarget {
  const problem = secretRefProblem(ref, referrerNamespace)
  if (problem) throw new SecretRefError(problem)
  return parseRef(ref, referrerNamespace)
}

/** Every `secretRef` a spec holds (an OAuth client's `clientSecretRef` too), with the field path that holds it. Kinds without references give none. */
export function secretRefsOf(kind: string, spec: unknown): { field: string; name: string }[] {
  const s = spec as {
    endpoint?: { auth?: { secretRef?: { name: string }; oauth2?: { clientSecretRef?: { name: string } } } }
    authHeaders?: { secretRef: { name: string } }[]
    auth?: { oauth2?: { clientSecretRef?: { name: string } } }
  }
  if (kind === 'Tool') {
    const ref = s.endpoint?.auth?.secretRef
    const client = s.endpoint?.auth?.oauth2?.clientSecretRef
    return [
      ...(ref ? [{ field: 'spec.endpoint.auth.secretRef.name', name: ref.name }] : []),
      ...(client ? [{ field: 'spec.endpoint.auth.oauth2.clientSecretRef.name', name: client.name }] : []),
    ]
  }
  if (kind === 'LanguageTool') {
    const client = s.auth?.oauth2?.clientSecretRef
    return [
      ...(s.authHeaders ?? []).map((h, i) => ({ field: `spec.authHeaders[${i}].secretRef.name`, name: h.secretRef.name })),
      ...(client ? [{ field: 'spec.auth.oauth2.clientSecretRef.name', name: client.name }] : []),
    ]
  }
  return []
}

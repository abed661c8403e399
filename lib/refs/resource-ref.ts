// References between resources, as specs write them (spec.grants, spec.languageTools, spec.unit,
// spec.parent, a connector's languageTool, a Tool's mcpServerRef, a secretRef): `name` is a resource
// in the referrer's own namespace, `namespace/name` one in the namespace it names (README, "How
// references and precedence work"). The one place that reading lives. Pure; the portal uses it too.

export interface ResourceName {
  namespace: string
  name: string
}

/** The resource `ref`, written in a resource of `referrerNamespace`, names. */
export function parseRef(ref: string, referrerNamespace: string): ResourceName {
  const slash = ref.indexOf('/')
  return slash < 0 ? { namespace: referrerNamespace, name: ref } : { namespace: ref.slice(0, slash), name: ref.slice(slash + 1) }
}

/** `ref` as `namespace/name`: the key registry reads use. */
export function qualifyRef(ref: string, referrerNamespace: string): string {
  return ref.includes('/') ? ref : `${referrerNamespace}/${ref}`
}

// Answers in YAML for clients that ask for it (`Accept: application/yaml`): the same value as the JSON
// answer, so a resource fetched as YAML applies again as it is (README, "GitOps").
import Negotiator from 'negotiator'
import { stringify } from 'yaml'

export const YAML_CONTENT_TYPE = 'application/yaml'
// JSON first: it is what `*/*`, a missing Accept and ties get.
const OFFERED = ['application/json', YAML_CONTENT_TYPE, 'application/x-yaml', 'text/yaml']

export function prefersYaml(request: Request): boolean {
  const accept = request.headers.get('accept')
  if (!accept) return false
  const best = new Negotiator({ headers: { accept } }).mediaType(OFFERED)
  return best !== undefined && best !== 'application/json'
}

export function yamlText(value: unknown): string {
  // No folded lines (a long description stays one scalar) and no anchors for repeated objects.
  return stringify(value, { lineWidth: 0, aliasDuplicateObjects: false })
}

export async function yamlResponse(result: unknown, status: number): Promise<Response> {
  const value = result instanceof Response ? await result.json() : result
  return new Response(yamlText(value), { status, headers: { 'content-type': `${YAML_CONTENT_TYPE}; charset=utf-8` } })
}

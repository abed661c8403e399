// `toolroom render LANGUAGETOOL`: the Kubernetes workload of a LanguageTool's deploymentMode, for the
// operator to apply (Toolroom runs none itself; GET /api/v1/languagetools/{id}/deployment). By
// default only what kubectl takes: the List of the Deployment and Service (service mode), or the
// container to add to the agent pod's spec.containers (sidecar mode).
import { apiClient, unwrap } from '../client.mjs'
import type { Connection } from '../config.mjs'
import { EXIT } from '../errors.mjs'
import { nameAndNamespace, resourceParams } from '../kinds.mjs'
import { err, printValue, yamlText } from '../output.mjs'

export interface RenderOptions {
  namespace?: string
  output: 'yaml' | 'json'
  /** The whole answer (mode, endpoint and the objects), not only the objects. */
  full?: boolean
}

export async function render(conn: Connection, languageTool: string, options: RenderOptions): Promise<number> {
  const ref = nameAndNamespace(languageTool, options.namespace ?? conn.namespace)
  const answer = await unwrap(conn.server, apiClient(conn).GET('/api/v1/languagetools/{id}/deployment', { params: resourceParams(ref) }))
  if (options.full) {
    printValue(answer, options.output)
    return EXIT.ok
  }
  const objects = answer.mode === 'service' ? answer.manifest : answer.container
  // Where the rendered server is reached goes to stderr, so stdout pipes into kubectl as it is.
  err(`# ${answer.mode}: reached at ${answer.endpoint}${answer.mode === 'sidecar' ? " (add this container to the agent pod's spec.containers)" : ''}`)
  if (options.output === 'json') printValue(objects, 'json')
  else process.stdout.write(yamlText(objects))
  return EXIT.ok
}

// `toolroom get` and `toolroom delete`. What `get -o yaml|json` prints applies again unchanged (the
// server ignores the fields it sets); a list prints as a Kubernetes `List`, as kubectl does.
import { type Api, apiClient, unwrap } from '../client.mjs'
import type { Connection } from '../config.mjs'
import { ApiError, EXIT, UsageError } from '../errors.mjs'
import { type KindInfo, kindNamed, KINDS, nameAndNamespace, type Resource, resourceParams, resourceRows } from '../kinds.mjs'
import { readManifests, whereIs } from '../manifests.mjs'
import { err, type Format, out, printValue, table } from '../output.mjs'

// Every kind's routes share one shape (a page of resources; one resource by id or name): the typed
// client is asked through the Tool routes' types, with the kind's own path.
const listPath = (kind: KindInfo) => `/api/v1/${kind.plural}` as '/api/v1/tools'
const onePath = (kind: KindInfo) => `/api/v1/${kind.plural}/{id}` as '/api/v1/tools/{id}'

const MAX_ITEMS = 100_000

async function listAll(api: Api, conn: Connection, kind: KindInfo, query: { namespace?: string; labelSelector?: string }): Promise<Resource[]> {
  const items: Resource[] = []
  let cursor: string | undefined
  do {
    const page = await unwrap(conn.server, api.GET(listPath(kind), { params: { query: { ...query, limit: 500, ...(cursor ? { cursor } : {}) } } }))
    items.push(...(page.items as unknown as Resource[]))
    cursor = page.nextCursor ?? undefined
  } while (cursor && items.length < MAX_ITEMS)
  return items
}

export interface GetOptions {
  namespace?: string
  selector?: string
  output: Format
}

export async function get(conn: Connection, kindName: string, name: string | undefined, options: GetOptions): Promise<number> {
  const kind = kindNamed(kindName)
  const api = apiClient(conn)
  if (name) {
    if (options.selector) throw new UsageError('-l selects from a list: leave out the name, or leave out -l')
    const ref = nameAndNamespace(name, options.namespace ?? conn.namespace)
    const resource = (await unwrap(conn.server, api.GET(onePath(kind), { params: resourceParams(ref) }))) as unknown as Resource
    if (options.output === 'table') {
      const { headers, rows } = resourceRows(kind, [resource])
      out(table(headers, rows))
    } else printValue(resource, options.output)
    return EXIT.ok
  }
  const items = await listAll(api, conn, kind, {
    ...(options.namespace ? { namespace: options.namespace } : {}),
    ...(options.selector !== undefined ? { labelSelector: options.selector } : {}),
  })
  if (options.output !== 'table') printValue({ apiVersion: 'v1', kind: 'List', items }, options.output)
  else if (items.length === 0) err(`No ${kind.plural} found${options.namespace ? ` in namespace ${options.namespace}` : ''}.`)
  else {
    const { headers, rows } = resourceRows(kind, items)
    out(table(headers, rows))
  }
  return EXIT.ok
}

export interface DeleteOptions {
  filename: string[]
  recursive?: boolean
  namespace?: string
  ignoreNotFound?: boolean
}

/** Deletes one by one (each is audited); a resource that is not there fails the command unless --ignore-not-found. */
export async function remove(conn: Connection, kindName: string | undefined, name: string | undefined, options: DeleteOptions): Promise<number> {
  const targets: { kind: KindInfo; id: string; namespace?: string; where?: string }[] = []
  if (options.filename.length) {
    if (kindName || name) throw new UsageError('give either -f FILE or KIND NAME, not both')
    for (const source of readManifests(options.filename, options.recursive ?? false)) {
      const doc = source.value as { kind?: unknown; metadata?: { name?: unknown; namespace?: unknown } }
      const kind = typeof doc.kind === 'string' ? KINDS.find((k) => k.kind === doc.kind || k.names.includes(doc.kind!.toString().toLowerCase())) : undefined
      if (!kind || typeof doc.metadata?.name !== 'string') throw new UsageError(`${whereIs(source)}: not a Toolroom resource (kind and metadata.name)`)
      targets.push({
        kind,
        id: doc.metadata.name,
        namespace: typeof doc.metadata.namespace === 'string' ? doc.metadata.namespace : 'default',
        where: whereIs(source),
      })
    }
  } else {
    if (!kindName || !name) throw new UsageError('give KIND NAME (e.g. toolroom delete tool acme.echo -n team) or -f FILE')
    targets.push({ kind: kindNamed(kindName), ...nameAndNamespace(name, options.namespace ?? conn.namespace) })
  }
  const api = apiClient(conn)
  let failed = false
  for (const t of targets) {
    const what = `${t.kind.kind} ${t.namespace ? `${t.namespace}/` : ''}${t.id}`
    try {
      await unwrap(conn.server, api.DELETE(onePath(t.kind), { params: resourceParams(t) }))
      out(`${what} deleted`)
    } catch (e) {
      if (e instanceof ApiError && e.status === 404 && options.ignoreNotFound) {
        out(`${what} not found (ignored)`)
        continue
      }
      if (!(e instanceof ApiError) || e.status === null) throw e
      failed = true
      err(`error: ${what}${t.where ? ` (${t.where})` : ''}: ${e.message}`)
    }
  }
  return failed ? EXIT.failed : EXIT.ok
}

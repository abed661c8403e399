import { prisma } from '@/lib/db'

type Handler = (request: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>

export interface Call {
  method?: string
  body?: unknown
  /** Sent as is when a string; JSON-encoded otherwise. */
  contentType?: string
  params?: Record<string, string>
  headers?: Record<string, string>
}

/** Calls a route handler in-process with a real Request, as Next.js would. */
export async function call(handler: Handler, url: string, { method = 'GET', body, contentType, params = {}, headers = {} }: Call = {}) {
  const init: RequestInit = { method, headers: { ...headers } }
  if (body !== undefined) {
    init.body = typeof body === 'string' ? body : JSON.stringify(body)
    ;(init.headers as Record<string, string>)['content-type'] = contentType ?? (typeof body === 'string' ? 'application/yaml' : 'application/json')
  }
  const response = await handler(new Request(`http://toolroom.test${url}`, init), { params: Promise.resolve(params) })
  const text = await response.text()
  let json: unknown = undefined
  try {
    json = text ? JSON.parse(text) : undefined
  } catch {
    // not JSON (YAML answers)
  }
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  return { status: response.status, contentType: response.headers.get('content-type'), text, json: json as any, headers: response.headers }
}

export async function resetDatabase() {
  await prisma.$executeRawUnsafe('TRUNCATE "Tool", "LanguageTool", "Connector", "Unit", "Agent", "Secret", "SideEffectPolicy"')
}

export async function countRows() {
  const [tools, languageTools, connectors, units, agents, secrets, policies] = await Promise.all([
    prisma.tool.count(),
    prisma.languageTool.count(),
    prisma.connector.count(),
    prisma.unit.count(),
    prisma.agent.count(),
    prisma.secret.count(),
    prisma.sideEffectPolicy.count(),
  ])
  return { tools, languageTools, connectors, units, agents, secrets, policies }
}

export const yaml = (strings: TemplateStringsArray, ...values: unknown[]) => String.raw(strings, ...values).replace(/^\n/, '')

// A `server.json` (the MCP Registry's format, vendor/mcp-registry/) read as a LanguageTool: Apply
// and the CLI take it as one more form of document (input-forms.ts). Toolroom reaches a
// server over HTTP, so only its `remotes` can become one; a server that only ships packages (run by
// the client itself, mostly over stdio) is refused, naming the field. Pure. docs/design/registry-api.md
import type { ErrorObject, ValidateFunction } from 'ajv'
import type { FieldError } from '@/lib/errors/app-error'
import { isObject } from '@/lib/json/unknown-values'
import { createUntrustedAjv } from './untrusted-ajv'
import serverSchema from '@/vendor/mcp-registry/server.schema.json'

/** Where a server.json may say which LanguageTool it becomes: `_meta["dev.toolroom/registry"]: { namespace?, name? }`. */
const IMPORT_META_KEY = 'dev.toolroom/registry'
const SERVER_SCHEMA_HINT = /modelcontextprotocol.*server\.schema\.json/
const MAX_SCHEMA_ERRORS = 20
const HEADER_NAME = /^[A-Za-z0-9-]+$/
const TEMPLATE_VARIABLE = /\{([a-zA-Z_][a-zA-Z0-9_]*)\}/g

type Problem = Omit<FieldError, 'document'>

/** A document with no kind that says it is a server.json, or has its shape (a reverse-DNS name with remotes or packages). */
export function isServerJson(raw: Record<string, unknown>): boolean {
  if ('kind' in raw || 'apiVersion' in raw || 'spec' in raw || 'metadata' in raw) return false
  if (typeof raw.$schema === 'string' && SERVER_SCHEMA_HINT.test(raw.$schema)) return true
  return typeof raw.name === 'string' && raw.name.includes('/') && ('remotes' in raw || 'packages' in raw)
}

let validator: ValidateFunction | null = null
function validateServerJson(raw: unknown): ErrorObject[] {
  // Compiled once per process, by the Ajv for schemas nobody here wrote (its patterns run in linear time).
  validator ??= createUntrustedAjv().compile(serverSchema)
  return validator(raw) ? [] : (validator.errors ?? [])
}

/** `/remotes/0/url` → `remotes[0].url`, the form every other field error takes. */
function fieldOfPointer(pointer: string): string {
  const parts = pointer
    .split('/')
    .slice(1)
    .map((p) => p.replaceAll('~1', '/').replaceAll('~0', '~'))
  return parts.map((p, i) => (/^\d+$/.test(p) ? `[${p}]` : i === 0 ? p : `.${p}`)).join('') || '(document)'
}

function schemaProblems(errors: ErrorObject[]): Problem[] {
  // anyOf branches each report why they failed; the first per field says enough.
  const byField = new Map<string, Problem>()
  for (const e of errors) {
    const field = fieldOfPointer(e.instancePath)
    const missing = e.keyword === 'required' ? (e.params as { missingProperty?: string }).missingProperty : undefined
    const at = missing ? (field === '(document)' ? missing : `${field}.${missing}`) : field
    if (!byField.has(at))
      byField.set(at, {
        field: at,
        rule: `server-json-${e.keyword}`,
        message: `${missing ? 'is required' : (e.message ?? 'is invalid')} (server.json schema 2025-12-11)`,
      })
  }
  return [...byField.values()].slice(0, MAX_SCHEMA_ERRORS)
}

export interface ServerJsonConversion {
  /** The LanguageTool document, when the server.json can be one. */
  document?: Record<string, unknown>
  /** Why it cannot, at server.json fields. */
  errors: Problem[]
  /** Fields of the LanguageTool (prefixes) and the server.json fields they came from. */
  origins: Array<[string, string]>
}

/** The DNS label a server name's last part gives (`io.github.acme/Weather_API` → `weather-api`). */
export function languageToolNameOf(serverName: string): string {
  return serverName
    .slice(serverName.lastIndexOf('/') + 1)
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 63)
    .replace(/-+$/, '')
}

interface Remote {
  type: 'streamable-http' | 'sse'
  url: string
  headers?: Array<{ name: string; isRequired?: boolean; isSecret?: boolean }>
  variables?: Record<string, { value?: string; default?: string }>
}

export function languageToolFromServerJson(raw: Record<string, unknown>): ServerJsonConversion {
  const schemaErrors = validateServerJson(raw)
  if (schemaErrors.length > 0) return { errors: schemaProblems(schemaErrors), origins: [] }
  const server = raw as {
    name: string
    description: string
    version: string
    remotes?: Remote[]
    packages?: Array<{ transport: { type: string } }>
    _meta?: unknown
  }
  const remotes = server.remotes ?? []
  // Streamable HTTP first: the transport the gateway and discovery speak natively.
  const index = ['streamable-http', 'sse'].map((type) => remotes.findIndex((r) => r.type === type)).find((i) => i >= 0)
  if (index === undefined) return { errors: [noRemote(server.packages ?? [])], origins: [] }
  const remote = remotes[index]
  const at = `remotes[${index}]`
  const errors: Problem[] = []

  const url = remote.url.replace(TEMPLATE_VARIABLE, (whole, variable: string) => {
    const input = remote.variables?.[variable]
    const value = input?.value ?? input?.default
    if (value !== undefined) return value
    errors.push({
      field: `${at}.url`,
      rule: 'url-template',
      message: `has the variable {${variable}} with no value or default in ${at}.variables: Toolroom calls one address, give it resolved`,
    })
    return whole
  })

  const authHeaders: Array<{ name: string; secretRef: { name: string; key: string } }> = []
  const origins: Array<[string, string]> = [
    ['spec.endpoint', `${at}.url`],
    ['spec.transport', `${at}.type`],
    ['spec.description', 'description'],
    ['metadata.annotations', 'version'],
  ]
  const wanted = isObject(server._meta) && isObject(server._meta[IMPORT_META_KEY]) ? server._meta[IMPORT_META_KEY] : {}
  const name = typeof wanted.name === 'string' ? wanted.name : languageToolNameOf(server.name)
  origins.push(['metadata.name', typeof wanted.name === 'string' ? `_meta.${IMPORT_META_KEY}.name` : 'name'])
  if (typeof wanted.namespace === 'string') origins.push(['metadata.namespace', `_meta.${IMPORT_META_KEY}.namespace`])
  if (name === '') errors.push({ field: 'name', rule: 'dns-label', message: 'gives no LanguageTool name: its part after "/" has no letter or digit' })

  // Headers the client must send become headers Toolroom sends from a Secret named like the server,
  // one key per header; optional ones are left to whoever sets the LanguageTool up.
  ;(remote.headers ?? []).forEach((header, j) => {
    if (!header.isRequired && !header.isSecret) return
    if (!HEADER_NAME.test(header.name)) {
      errors.push({ field: `${at}.headers[${j}].name`, rule: 'header-name', message: 'must be an HTTP header name (letters, digits and "-")' })
      return
    }
    origins.push([`spec.authHeaders[${authHeaders.length}]`, `${at}.headers[${j}]`])
    authHeaders.push({ name: header.name, secretRef: { name, key: header.name } })
  })
  if (errors.length > 0) return { errors, origins: [] }

  return {
    document: {
      apiVersion: 'toolroom.dev/v1alpha1',
      kind: 'LanguageTool',
      metadata: {
        name,
        ...(typeof wanted.namespace === 'string' ? { namespace: wanted.namespace } : {}),
        annotations: { 'toolroom.dev/server-json-name': server.name, 'toolroom.dev/server-json-version': server.version },
      },
      spec: { endpoint: url, transport: remote.type, description: server.description, ...(authHeaders.length > 0 ? { authHeaders } : {}) },
    },
    errors: [],
    origins,
  }
}

function noRemote(packages: Array<{ transport: { type: string } }>): Problem {
  const stdio = packages.findIndex((p) => p.transport.type === 'stdio')
  const why =
    packages.length === 0
      ? 'the server.json has neither remotes nor packages'
      : stdio >= 0
        ? `packages[${stdio}].transport.type is "stdio": a package runs as a process on the client's machine, which no gateway can call`
        : `its packages run on the client's machine (packages[0].transport.type "${packages[0].transport.type}" there), which no gateway can call`
  return {
    field: 'remotes',
    rule: 'http-remote-required',
    message: `is required: Toolroom reaches MCP servers over HTTP only (a streamable-http or sse remote), and ${why}`,
  }
}

/** A LanguageTool field path as the server.json author wrote it. */
export function serverJsonField(field: string, origins: Array<[string, string]>): string {
  // Longest prefix first: spec.authHeaders[1] before spec.
  for (const [languageTool, serverJson] of [...origins].sort((a, b) => b[0].length - a[0].length))
    if (field === languageTool || field.startsWith(`${languageTool}.`) || field.startsWith(`${languageTool}[`)) return serverJson
  return field
}

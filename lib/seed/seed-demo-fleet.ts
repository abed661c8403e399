// The Northwind demo fleet, seeded on the first start of an empty Toolroom (README, Quick start): the manifest
// prisma/seed/demo-fleet.yaml, the tool surfaces its agent and unit images declare, and snapshots of
// its MCP servers' tools/list answers. An installation that already has an agent or a tool is left
// alone. Everything is checked before anything is written, so a broken seed file fails the start-up
// with a list of what is wrong rather than leaving a half-seeded registry behind.
import 'server-only'
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { prisma } from '@/lib/db'
import { demoFleetRefusal } from './demo-present'
import { AppError, type FieldError } from '@/lib/errors/app-error'
import type { DiscoveredMcpTool } from '@/lib/effective-tools/catalog-tools'
import { systemContext } from '@/lib/audit/audit-actor'
import { setImageTools } from '@/lib/image-tools/set-image-tools'
import { validateImageTools } from '@/lib/image-tools/validate-image-tools'
import { applyManifestText, type ApplyResult } from '@/lib/apply/apply-documents'
import { checkToolJsonSchema } from '@/lib/manifests/json-schema'
import { resolveKind } from '@/lib/manifests/kinds'
import { parseManifest } from '@/lib/manifests/parse-manifest'
import { imageDigestOf } from '@/lib/manifests/specs/fleet'
import { noteRegistryChange } from '@/lib/registry/registry-changes'
import { canonicalMcpToolId } from '@/lib/tools/naming'
import { refreshToolStatusAfter } from '@/lib/tools/refresh-tool-status'
import { DEMO_MANIFEST_PORT, withDemoPorts } from '@/scripts/demo-ports.mjs'

const DEMO_FLEET_FILES = {
  manifest: 'prisma/seed/demo-fleet.yaml',
  imageTools: 'prisma/seed/image-tools.json',
  languageToolSurfaces: 'prisma/seed/language-tool-surfaces.json',
} as const

export interface DemoFleetSummary {
  /** Documents applied, by kind. */
  resources: Record<string, number>
  /** Agents and units given an uploaded image surface, and the tools on them. */
  imageToolSubjects: number
  imageTools: number
  /** LanguageTools given a tools/list snapshot, and the tools in them. */
  languageToolSurfaces: number
  languageToolSurfaceTools: number
}

export interface SeedDemoFleetResult {
  seeded: boolean
  /** Why nothing was done, when seeded is false. */
  reason?: string
  summary?: DemoFleetSummary
}

interface ImageToolsEntry {
  kind: 'Agent' | 'Unit'
  namespace: string
  name: string
  tools: unknown[]
}

interface SurfaceEntry {
  namespace: string
  name: string
  tools: DiscoveredMcpTool[]
}

/** `portBase`: where the fleet's local endpoints start (scripts/demo-ports.mjs); the manifest's own ports by default. */
export async function seedDemoFleet(options: { root?: string; portBase?: number } = {}): Promise<SeedDemoFleetResult> {
  const refusal = await demoFleetRefusal()
  if (refusal) return { seeded: false, reason: refusal }

  const root = options.root ?? process.cwd()
  const read = (file: string) => readFile(path.join(root, file), 'utf8')
  const [manifestText, imageToolsText, surfacesText] = await Promise.all([
    read(DEMO_FLEET_FILES.manifest).then((text) => withDemoPorts(text, options.portBase ?? DEMO_MANIFEST_PORT)),
    read(DEMO_FLEET_FILES.imageTools),
    read(DEMO_FLEET_FILES.languageToolSurfaces),
  ])

  const imageTools = parseImageTools(imageToolsText)
  const surfaces = parseSurfaces(surfacesText)
  preflight(manifestText, imageTools, surfaces)

  const audit = systemContext('demo-seed')
  const applied = await applyManifestText(manifestText, { audit, caller: 'system' })

  let imageToolCount = 0
  for (const entry of imageTools) {
    const stored = await setImageTools(entry.kind, entry.name, entry.namespace, { tools: entry.tools }, audit)
    imageToolCount += stored.tools.length
  }

  const now = new Date()
  let surfaceToolCount = 0
  for (const surface of surfaces) {
    await prisma.languageTool.update({
      where: { namespace_name: { namespace: surface.namespace, name: surface.name } },
      data: {
        toolSchemas: surface.tools as unknown as object[],
        phase: 'Ready',
        health: 'ok',
        lastIntrospectedAt: now,
        lastError: null,
      },
    })
    surfaceToolCount += surface.tools.length
  }
  // Other processes hear of these writes from the registry trigger; this one reads its own writes.
  if (surfaces.length > 0) noteRegistryChange()
  // The servers' surfaces came in after their Tools were applied: observe those Tools again.
  await refreshToolStatusAfter(surfaces.map((s) => ({ kind: 'LanguageTool', namespace: s.namespace, name: s.name })))

  return {
    seeded: true,
    summary: {
      resources: countByKind(applied),
      imageToolSubjects: imageTools.length,
      imageTools: imageToolCount,
      languageToolSurfaces: surfaces.length,
      languageToolSurfaceTools: surfaceToolCount,
    },
  }
}

function countByKind(applied: ApplyResult): Record<string, number> {
  const out: Record<string, number> = {}
  for (const r of applied.results) out[r.kind] = (out[r.kind] ?? 0) + 1
  return out
}

/** Keys starting with "_" (such as "_comment") are notes for readers, not entries. */
const entriesOf = (value: Record<string, unknown>) => Object.entries(value).filter(([key]) => !key.startsWith('_'))

function parseJsonObject(text: string, file: string): Record<string, unknown> {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (e) {
    throw seedError(file, [{ field: '(file)', rule: 'json-syntax', message: (e as Error).message }])
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw seedError(file, [{ field: '(file)', rule: 'type', message: 'must be a JSON object' }])
  return value as Record<string, unknown>
}

/** A seed file of `"<key>": entry`, each entry read by `entry` (undefined when it is wrong); every error is reported at once. */
function parseEntries<T>(file: string, text: string, entry: (key: string, value: unknown, problem: (e: FieldError) => undefined) => T | undefined): T[] {
  const errors: FieldError[] = []
  const problem = (e: FieldError) => void errors.push(e)
  const out: T[] = []
  for (const [key, value] of entriesOf(parseJsonObject(text, file))) {
    const parsed = entry(key, value, problem)
    if (parsed) out.push(parsed)
  }
  if (errors.length > 0) throw seedError(file, errors)
  return out
}

const parseImageTools = (text: string) =>
  parseEntries<ImageToolsEntry>(DEMO_FLEET_FILES.imageTools, text, (key, value, problem) => {
    const parts = key.split('/')
    const kind = parts.length === 3 ? resolveKind(parts[1]) : null
    if (parts.length !== 3 || (kind !== 'Agent' && kind !== 'Unit'))
      return problem({ field: key, rule: 'key', message: 'keys are "<namespace>/<Agent|Unit>/<name>"' })
    const tools = (value as { tools?: unknown } | null)?.tools
    if (!Array.isArray(tools)) return problem({ field: `${key}.tools`, rule: 'type', message: 'must be the GET /a2a/tools array' })
    return { kind, namespace: parts[0], name: parts[2], tools }
  })

const parseSurfaces = (text: string) =>
  parseEntries<SurfaceEntry>(DEMO_FLEET_FILES.languageToolSurfaces, text, (key, value, problem) => {
    const parts = key.split('/')
    if (parts.length !== 2) return problem({ field: key, rule: 'key', message: 'keys are "<namespace>/<LanguageTool name>"' })
    if (!Array.isArray(value)) return problem({ field: key, rule: 'type', message: 'must be the tools/list "tools" array' })
    const seen = new Set<string>()
    value.forEach((tool: DiscoveredMcpTool, i) => {
      const at = (field: string, rule: string, message: string) => problem({ field: `${key}[${i}]${field}`, rule, message })
      if (typeof tool?.name !== 'string' || tool.name.length === 0) return at('.name', 'required', 'is required')
      if (seen.has(tool.name)) at('.name', 'duplicate', `"${tool.name}" appears more than once`)
      seen.add(tool.name)
      if (!canonicalMcpToolId(parts[1], tool.name)) at('.name', 'canonical-id', `"${tool.name}" has no canonical form under "${parts[1]}"`)
      if (tool.description !== undefined && typeof tool.description !== 'string') at('.description', 'type', 'must be a string')
      for (const issue of checkToolJsonSchema(tool.inputSchema, { requireObjectRoot: true })) at('.inputSchema', 'json-schema', `invalid JSON Schema: ${issue}`)
    })
    return { namespace: parts[0], name: parts[1], tools: value }
  })

/**
 * Cross-file checks before the first write: every image surface belongs to an Agent or Unit of the
 * manifest with a pinned digest and passes the upload rules against the manifest's connector slugs;
 * every surface snapshot belongs to a LanguageTool of the manifest. (The manifest itself is checked
 * by the apply, which writes nothing when any document is wrong.)
 */
function preflight(manifestText: string, imageTools: ImageToolsEntry[], surfaces: SurfaceEntry[]): void {
  const parsed = parseManifest(manifestText)
  if (parsed.errors.length > 0) throw seedError(DEMO_FLEET_FILES.manifest, parsed.errors)
  const docs = parsed.documents as { kind?: string; metadata?: { name?: string; namespace?: string }; spec?: { image?: string } }[]
  const byKey = new Map<string, (typeof docs)[number]>()
  for (const d of docs) {
    const kind = typeof d.kind === 'string' ? resolveKind(d.kind) : null
    if (kind && d.metadata?.name) byKey.set(`${kind}/${d.metadata.namespace ?? 'default'}/${d.metadata.name}`, d)
  }
  const slugs = new Set(docs.filter((d) => d.kind === 'Connector' && d.metadata?.name).map((d) => d.metadata!.name!))

  const imageErrors: FieldError[] = []
  for (const entry of imageTools) {
    const key = `${entry.namespace}/${entry.kind}/${entry.name}`
    const doc = byKey.get(`${entry.kind}/${entry.namespace}/${entry.name}`)
    if (!doc) {
      imageErrors.push({ field: key, rule: 'reference', message: `the manifest has no ${entry.kind} "${entry.namespace}/${entry.name}"` })
      continue
    }
    if (!imageDigestOf(doc.spec?.image))
      imageErrors.push({
        field: key,
        rule: 'required',
        message: `${entry.kind} "${entry.name}" has no @sha256 digest in spec.image, so its image surface has no digest to belong to`,
      })
    for (const e of validateImageTools(entry.tools, slugs).errors) imageErrors.push({ ...e, field: `${key}.${e.field}` })
  }
  if (imageErrors.length > 0) throw seedError(DEMO_FLEET_FILES.imageTools, imageErrors)

  const surfaceErrors: FieldError[] = []
  for (const s of surfaces)
    if (!byKey.has(`LanguageTool/${s.namespace}/${s.name}`))
      surfaceErrors.push({ field: `${s.namespace}/${s.name}`, rule: 'reference', message: `the manifest has no LanguageTool "${s.namespace}/${s.name}"` })
  if (surfaceErrors.length > 0) throw seedError(DEMO_FLEET_FILES.languageToolSurfaces, surfaceErrors)
}

function seedError(file: string, errors: FieldError[]): AppError {
  return new AppError('VALIDATION_FAILED', `${file}: ${errors.length} problem${errors.length === 1 ? '' : 's'}; nothing was seeded`, errors)
}

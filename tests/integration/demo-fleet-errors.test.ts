// A broken demo-fleet seed file stops the first start with every problem of that file, at its key,
// and writes nothing: no half-seeded registry for the operator to clean up.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeEach, describe, expect, it } from 'vitest'
import { prisma } from '@/lib/db'
import { AppError } from '@/lib/errors/app-error'
import { seedDemoFleet } from '@/lib/seed/seed-demo-fleet'
import { rejectionOf } from '../support/rejection-of'
import { resetDatabase } from './helpers'

const roots: string[] = []

/** A copy of prisma/seed with one file's JSON changed by `edit`. */
function seedRoot(file: 'image-tools.json' | 'language-tool-surfaces.json', edit: (json: Record<string, unknown>) => void): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'toolroom-seed-'))
  roots.push(root)
  fs.cpSync('prisma/seed', path.join(root, 'prisma/seed'), { recursive: true })
  const target = path.join(root, 'prisma/seed', file)
  const json = JSON.parse(fs.readFileSync(target, 'utf8'))
  edit(json)
  fs.writeFileSync(target, JSON.stringify(json))
  return root
}

const seedErrors = (root: string) => rejectionOf(seedDemoFleet({ root }), AppError)

beforeEach(resetDatabase)
afterAll(() => roots.forEach((root) => fs.rmSync(root, { recursive: true, force: true })))

describe('a broken demo-fleet seed file', () => {
  it('image tools: every bad key and surface is named, and nothing is written', async () => {
    const root = seedRoot('image-tools.json', (json) => {
      json['support/Secret/keys'] = { tools: [] }
      json['support/Agent'] = { tools: [] }
      json['support/Agent/support-faq'] = { tools: 'all of them' }
    })
    const error = await seedErrors(root)
    expect(error.message).toBe('prisma/seed/image-tools.json: 3 problems; nothing was seeded')
    expect(error.errors.map((e) => [e.field, e.rule])).toEqual([
      ['support/Agent/support-faq.tools', 'type'],
      ['support/Secret/keys', 'key'],
      ['support/Agent', 'key'],
    ])
    expect(await prisma.agent.count()).toBe(0)
    expect(await prisma.tool.count()).toBe(0)
  })

  it('surfaces: a bad key, a non-array and each bad tool are named, and nothing is written', async () => {
    const root = seedRoot('language-tool-surfaces.json', (json) => {
      json['platform/github/extra'] = []
      json['platform/slack-mcp'] = { tools: [] }
      const inputSchema = { type: 'object' }
      json['platform/kubernetes'] = [
        { name: 'get_pods', inputSchema },
        { name: 'get_pods', inputSchema },
        { description: 7 },
        { name: 'scale', inputSchema: { type: 'array' } },
      ]
    })
    const error = await seedErrors(root)
    expect(error.errors.map((e) => [e.field, e.rule])).toEqual([
      ['platform/slack-mcp', 'type'],
      ['platform/kubernetes[1].name', 'duplicate'],
      ['platform/kubernetes[2].name', 'required'],
      ['platform/kubernetes[3].inputSchema', 'json-schema'],
      ['platform/github/extra', 'key'],
    ])
    expect(await prisma.languageTool.count()).toBe(0)
  })

  it('a file that is not a JSON object is named with its syntax error', async () => {
    const root = seedRoot('image-tools.json', () => {})
    fs.writeFileSync(path.join(root, 'prisma/seed/image-tools.json'), '{"support/Agent/support-faq": ')
    const error = await seedErrors(root)
    expect(error.errors.map((e) => [e.field, e.rule])).toEqual([['(file)', 'json-syntax']])
  })
})

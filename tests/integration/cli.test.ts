// The toolroom CLI, run as its compiled binary (cli/dist, as `npx toolroom` runs it) in child processes
// against a real HTTP server over the app's route modules and the demo fleet: apply, diff (exit codes
// as kubectl diff), get -o yaml|json that applies again unchanged, delete, prune, effective-tools,
// approvals, calls, contexts, --help everywhere, readable errors at their file and line, colour
// only on a terminal, and hostile input.
import { randomUUID } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { parse } from 'yaml'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { requestApproval } from '@/lib/approvals/request-approval'
import { prisma } from '@/lib/db'
import { reloadConfig } from '@/lib/config'
import { seedDemoFleet } from '@/lib/seed/seed-demo-fleet'
import { startApiServer } from '../support/api-server'
import { labelledTool, type LabelledToolOptions } from '../support/labelled-tool'
import type { Listening } from '../support/listen'
import { buildCli, type CliOptions, runCli, startCli } from '../support/toolroom-cli'
import { until } from '../support/until'
import { resetDatabase, testAdminToken } from './helpers'
import { rollupCallStats } from '@/lib/stats/rollup-call-stats'
import { insertCalls } from './stats-fixtures'

let server: Listening
let token: string
let home: string

const toolroom = (args: string[], options?: CliOptions) => runCli(args, { home, url: server.url, token }, options)

const write = (name: string, text: string) => {
  const file = path.join(home, name)
  fs.mkdirSync(path.dirname(file), { recursive: true })
  fs.writeFileSync(file, text)
  return file
}

const tool = (name: string, options: Partial<LabelledToolOptions> = {}) =>
  labelledTool(name, { namespace: 'cli', labels: 'app: cli-test', description: 'A tool', ...options })

beforeAll(async () => {
  await buildCli()
  await resetDatabase()
  expect((await seedDemoFleet()).seeded).toBe(true)
  token = await testAdminToken()
  server = await startApiServer()
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'toolroom-cli-'))
}, 120_000)

afterAll(async () => {
  await server?.close()
  fs.rmSync(home, { recursive: true, force: true })
})

describe('--help', () => {
  const commands = [
    [],
    ['apply'],
    ['diff'],
    ['get'],
    ['delete'],
    ['effective-tools'],
    ['explain'],
    ['render'],
    ['approvals'],
    ['approvals', 'list'],
    ['approvals', 'show'],
    ['approvals', 'approve'],
    ['approvals', 'deny'],
    ['calls'],
    ['stats'],
    ['config'],
    ['config', 'view'],
    ['config', 'get-contexts'],
    ['config', 'use-context'],
    ['config', 'set-context'],
    ['config', 'delete-context'],
  ]
  it.each(commands.map((c) => [c.join(' ') || '(toolroom)', c]))('%s --help explains it and exits 0', async (_, command) => {
    const run = await toolroom([...(command as string[]), '--help'], { env: { TOOLROOM_URL: undefined } })
    expect(run.code, run.stderr).toBe(0)
    expect(run.stdout).toContain(`Usage: toolroom ${(command as string[]).join(' ')}`.trim())
  })

  it('an unknown command or option, or a missing argument, is a usage error (exit 2)', async () => {
    for (const args of [['bogus'], ['get'], ['get', 'tools', '--colour'], ['get', 'tools', '-o', 'xml'], ['approvals', 'approve']]) {
      const run = await toolroom(args)
      expect(run.code, args.join(' ')).toBe(2)
      expect(run.stderr).toMatch(/error/)
    }
  })
})

describe('apply, diff, get, delete', () => {
  it('applies a directory (-R), then finds nothing to change; a dry run writes nothing', async () => {
    write('repo/tools/one.yaml', tool('cli.one'))
    write('repo/tools/nested/two.yaml', `${tool('cli.two')}---\n${tool('cli.three')}`)
    write('repo/tools/notes.txt', 'not a manifest')
    const dry = await toolroom(['apply', '-f', path.join(home, 'repo'), '-R', '--dry-run'])
    expect(dry.code, dry.stderr).toBe(0)
    expect(dry.stdout).toContain('Tool cli/cli.one would be created')
    expect(dry.stdout).toContain('(dry run: nothing was written)')
    expect(await prisma.tool.count({ where: { namespace: 'cli' } })).toBe(0)

    const flat = await toolroom(['apply', '-f', path.join(home, 'repo/tools')])
    expect(flat.stdout).toContain('1 result: 1 created')
    const applied = await toolroom(['apply', '-f', path.join(home, 'repo'), '-R'])
    expect(applied.code, applied.stderr).toBe(0)
    expect(applied.stdout).toMatch(/Tool cli\/cli\.two created \(.*nested\/two\.yaml:1\)/)
    expect(applied.stdout).toContain('3 results: 2 created, 0 updated, 1 unchanged, 0 deleted')
    const again = await toolroom(['diff', '-f', path.join(home, 'repo'), '-R'])
    expect(again.code, again.stdout + again.stderr).toBe(0)
    expect(again.stdout).toContain('No differences')
  })

  it('diff prints field changes and the agents that gain a tool, and exits 1', async () => {
    const unit = await toolroom(['get', 'unit', 'support-escalations', '-n', 'support', '-o', 'yaml'])
    expect(unit.code, unit.stderr).toBe(0)
    const edited = unit.stdout.replace('    - finance/stripe.list_charges\n', '    - finance/stripe.list_charges\n    - finance/stripe.create_refund\n')
    expect(edited).not.toBe(unit.stdout)
    const file = write('grant.yaml', edited)
    const run = await toolroom(['diff', '-f', file])
    expect(run.code, run.stderr).toBe(1)
    expect(run.stdout).toContain('~ Unit support/support-escalations would be updated')
    expect(run.stdout).toContain('spec.grants[3]: + "finance/stripe.create_refund"')
    expect(run.stdout).toContain('Impact on agents: 1 of')
    expect(run.stdout).toContain(
      'support/support-escalation\n    + stripe.create_refund: gains it from grant (inherited from unit "support-escalations"): enabled, its calls wait for approval',
    )
    const json = await toolroom(['diff', '-f', file, '-o', 'json'])
    expect(json.code).toBe(1)
    expect(JSON.parse(json.stdout).impact.agentsAffected).toBe(1)
    expect(await prisma.unit.findFirstOrThrow({ where: { name: 'support-escalations' } }).then((u) => (u.spec as { grants: string[] }).grants)).not.toContain(
      'finance/stripe.create_refund',
    )
  })

  it('get -o yaml and -o json of every kind apply again unchanged, one resource and whole lists', async () => {
    for (const kind of ['tools', 'languagetools', 'connectors', 'units', 'agents', 'secrets', 'policies']) {
      for (const format of ['yaml', 'json']) {
        const list = await toolroom(['get', kind, '-o', format])
        expect(list.code, list.stderr).toBe(0)
        if (format === 'yaml') expect(list.stdout).toMatch(/^apiVersion: v1\nkind: List\n/)
        const round = await toolroom(['diff', '-f', '-'], { input: list.stdout })
        expect(round.code, `${kind} -o ${format}: ${round.stdout}${round.stderr}`).toBe(0)
      }
    }
    const one = await toolroom(['get', 'agent', 'support/support-escalation', '-o', 'yaml'])
    expect(one.stdout).toContain('effectiveTools:')
    const applied = await toolroom(['apply', '-f', '-'], { input: one.stdout })
    expect(applied.stdout).toContain('Agent support/support-escalation unchanged')
  }, 180_000)

  it('get lists as a table, filters by namespace and label selector, and says when nothing matches', async () => {
    const all = await toolroom(['get', 'tools', '-n', 'cli'])
    expect(all.stdout.split('\n')[0]).toMatch(/^NAMESPACE\s+NAME\s+TYPE\s+LEVEL\s+CALLS 7D\s+GENERATION\s+AGE$/)
    expect(all.stdout).toContain('cli.one')
    const selected = await toolroom(['get', 'tools', '-l', 'app=cli-test,!nothing', '-o', 'json'])
    expect(JSON.parse(selected.stdout).items.map((t: { metadata: { name: string } }) => t.metadata.name)).toEqual(['cli.one', 'cli.three', 'cli.two'])
    const none = await toolroom(['get', 'agents', '-n', 'nowhere'])
    expect(none.code).toBe(0)
    expect(none.stderr).toContain('No agents found in namespace nowhere')
    const bad = await toolroom(['get', 'tools', '-l', 'app in cli-test'])
    expect(bad.code).toBe(1)
    expect(bad.stderr).toContain('labelSelector: at character 8')
  })

  it('prunes what carries the labels but left the manifests, after diff --prune shows it', async () => {
    fs.rmSync(path.join(home, 'repo/tools/nested'), { recursive: true })
    const shown = await toolroom(['diff', '-f', path.join(home, 'repo'), '-R', '--prune', '-l', 'app=cli-test'])
    expect(shown.code).toBe(1)
    expect(shown.stdout).toContain('- Tool cli/cli.two would be deleted (prune: labelled, not in the manifests)')
    expect(shown.stdout).toContain('- Tool cli/cli.three would be deleted')
    const pruned = await toolroom(['apply', '-f', path.join(home, 'repo'), '-R', '--prune', '-l', 'app=cli-test'])
    expect(pruned.code, pruned.stderr).toBe(0)
    expect(pruned.stdout).toContain('Tool cli/cli.two deleted (prune)')
    expect((await prisma.tool.findMany({ where: { namespace: 'cli' }, select: { name: true } })).map((t) => t.name)).toEqual(['cli.one'])
    const alone = await toolroom(['apply', '-f', path.join(home, 'repo'), '-R', '--prune'])
    expect(alone.code).toBe(2)
    expect(alone.stderr).toContain('--prune needs -l')
    const everything = await toolroom(['apply', '-f', path.join(home, 'repo'), '-R', '--prune', '-l', '!keep'])
    expect(everything.code).toBe(1)
    expect(everything.stderr).toContain('prune: a prune selector must require some label to be there')
  })

  it('deletes by manifest and by name; what is not there fails unless --ignore-not-found', async () => {
    const file = write('gone.yaml', `${tool('cli.gone')}---\n${tool('cli.gone_too')}`)
    await toolroom(['apply', '-f', file])
    const byFile = await toolroom(['delete', '-f', file])
    expect(byFile.code, byFile.stderr).toBe(0)
    expect(byFile.stdout).toBe('Tool cli/cli.gone deleted\nTool cli/cli.gone_too deleted\n')
    const again = await toolroom(['delete', '-f', file])
    expect(again.code).toBe(1)
    expect(again.stderr).toMatch(/error: Tool cli\/cli\.gone \(.*gone\.yaml:1\): Tool "cli\/cli\.gone" was not found/)
    expect((await toolroom(['delete', '-f', file, '--ignore-not-found'])).code).toBe(0)
    await toolroom(['apply', '-f', file])
    const byName = await toolroom(['delete', 'tool', 'cli.gone', '-n', 'cli'])
    expect(byName.stdout).toBe('Tool cli/cli.gone deleted\n')
    expect((await toolroom(['delete', 'tool', 'cli/cli.gone_too'])).code).toBe(0)
    expect((await toolroom(['delete', 'tool'])).code).toBe(2)
    expect((await toolroom(['delete', 'tool', 'x', '-f', file])).code).toBe(2)
  })
})

describe('errors a person can act on', () => {
  it('a refused manifest names each problem at its file and line, field and rule; apply exits 1, diff 2', async () => {
    const file = write(
      'broken/tools.yaml',
      `${tool('cli.fine')}---\n${tool('cli.bad', { extra: '  safety:\n    allowedAgents: ["Not Valid!"]\n' })}---\napiVersion: toolroom.dev/v1alpha1\nkind: Tool\nmetadata: { name: Bad.Name, namespace: cli }\nspec: { type: function, description: x, inputSchema: { type: object }, colour: red }\n`,
    )
    const run = await toolroom(['apply', '-f', file])
    expect(run.code).toBe(1)
    expect(run.stderr).toContain('error: Validation failed: 3 validation errors in 2 documents; nothing was written')
    expect(run.stderr).toMatch(/broken\/tools\.yaml:23 Tool cli\.bad: spec\.safety\.allowedAgents\[0\]: .* \(format\)/)
    expect(run.stderr).toMatch(/broken\/tools\.yaml:27 Tool Bad\.Name: metadata\.name: .* \(canonical-id\)/)
    expect(run.stderr).toMatch(/broken\/tools\.yaml:28 Tool Bad\.Name: spec\.colour: unknown field "colour" \(unknown-field\)/)
    expect((await toolroom(['diff', '-f', file])).code).toBe(2)
    expect(await prisma.tool.count({ where: { name: 'cli.fine' } })).toBe(0)
  })

  it('applies a server.json as the LanguageTool of its remote, and names why a stdio-only one cannot be at its file and line', async () => {
    const server = (fields: object) =>
      JSON.stringify(
        {
          $schema: 'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json',
          name: 'io.github.acme/cli-weather',
          description: 'Weather',
          version: '1.0.0',
          _meta: { 'dev.toolroom/registry': { namespace: 'cli' } },
          ...fields,
        },
        null,
        2,
      )
    const remote = write('registry/server.json', server({ remotes: [{ type: 'streamable-http', url: 'https://weather.example.com/mcp' }] }))
    const applied = await toolroom(['apply', '-f', remote])
    expect(applied.code, applied.stderr).toBe(0)
    expect(applied.stdout).toContain('LanguageTool cli/cli-weather created')
    const stdio = write(
      'registry/stdio.json',
      server({ packages: [{ registryType: 'npm', identifier: '@acme/weather', version: '1.0.0', transport: { type: 'stdio' } }] }),
    )
    const refused = await toolroom(['apply', '-f', stdio])
    expect(refused.code).toBe(1)
    expect(refused.stderr).toMatch(/registry\/stdio\.json:\d+ .*remotes: is required: Toolroom reaches MCP servers over HTTP only .* \(http-remote-required\)/)
  })

  it("render writes a LanguageTool's Deployment and Service for kubectl (stdout), saying where it is reached (stderr)", async () => {
    const file = write(
      'render/languagetool.yaml',
      'apiVersion: toolroom.dev/v1alpha1\nkind: LanguageTool\nmetadata: { name: rendered, namespace: cli }\nspec: { image: "ghcr.io/acme/rendered:1.0.0", port: 9000 }\n',
    )
    expect((await toolroom(['apply', '-f', file])).code).toBe(0)
    const run = await toolroom(['render', 'cli/rendered'])
    expect(run.code, run.stderr).toBe(0)
    const list = parse(run.stdout) as { kind: string; items: { kind: string }[] }
    expect([list.kind, ...list.items.map((i) => i.kind)]).toEqual(['List', 'Deployment', 'Service'])
    expect(run.stderr).toContain('reached at http://rendered.cli.svc.cluster.local:9000')
  })

  it('a file that is not YAML, a duplicate key, a missing file and an empty one fail before anything is sent', async () => {
    const cases: [string, RegExp][] = [
      [write('bad/syntax.yaml', 'kind: Tool\nmetadata: [unclosed\n'), /syntax\.yaml:\d+: /],
      [write('bad/dupe.yaml', 'kind: Tool\nkind: Agent\n'), /dupe\.yaml:2: Map keys must be unique/],
      [path.join(home, 'bad/missing.yaml'), /missing\.yaml: no such file or directory/],
      [write('bad/empty.yaml', '---\n# nothing\n'), /empty\.yaml: no documents/],
    ]
    for (const [file, message] of cases) {
      const run = await toolroom(['apply', '-f', file])
      expect(run.code, file).toBe(1)
      expect(run.stderr).toMatch(message)
      expect((await toolroom(['diff', '-f', file])).code).toBe(2)
    }
  })

  it('a bad token is a 401 with a hint; an unreachable or malformed server says so', async () => {
    const denied = await toolroom(['get', 'tools'], { env: { TOOLROOM_TOKEN: 'trk_wrong' } })
    expect(denied.code).toBe(1)
    expect(denied.stderr).toContain('(set TOOLROOM_TOKEN, pass --token, or use a context with a token)')
    const unreachable = await toolroom(['get', 'tools', '--server', 'http://127.0.0.1:9'])
    expect(unreachable.code).toBe(1)
    expect(unreachable.stderr).toContain('cannot reach http://127.0.0.1:9')
    for (const bad of ['not a url', 'file:///etc/passwd', 'javascript:alert(1)']) {
      const run = await toolroom(['get', 'tools', '--server', bad])
      expect(run.code, bad).toBe(2)
    }
    const kind = await toolroom(['get', 'gadgets'])
    expect(kind.code).toBe(2)
    expect(kind.stderr).toContain('unknown kind "gadgets"')
  })

  it('hostile names and selectors are the server’s to refuse, and nothing is printed raw to a terminal', async () => {
    const nul = await toolroom(['get', 'tool', 'a\u0001b', '-n', 'x'])
    expect(nul.code).toBe(1)
    const traversal = await toolroom(['get', 'tool', '../../users', '-n', 'cli'])
    expect(traversal.code).toBe(1)
    expect(traversal.stderr).toMatch(/not found|no API route/)
    const huge = await toolroom(['get', 'tools', '-l', 'a'.repeat(5000)])
    expect(huge.code).toBe(1)
    expect(huge.stderr).toContain('labelSelector')
  })
})

describe('colour', () => {
  it('only on a terminal: none in pipes, unless FORCE_COLOR asks; never with NO_COLOR', async () => {
    const file = write('colour.yaml', tool('cli.colour'))
    const piped = await toolroom(['diff', '-f', file])
    expect(piped.stdout).not.toContain('\u001b[')
    const forced = await toolroom(['diff', '-f', file], { env: { FORCE_COLOR: '1' } })
    expect(forced.stdout).toContain('\u001b[32m+\u001b[39m')
    const error = await toolroom(['get', 'gadgets'], { env: { FORCE_COLOR: '1' } })
    expect(error.stderr).toContain('\u001b[31merror:\u001b[39m')
    expect((await toolroom(['diff', '-f', file], { env: { FORCE_COLOR: '0', NO_COLOR: '1' } })).stdout).not.toContain('\u001b[')
  })
})

describe('effective-tools, approvals, calls', () => {
  it('effective-tools lists the set, with --excluded the shadowed and denied entries and their reasons', async () => {
    const run = await toolroom(['effective-tools', 'support/support-escalation'])
    expect(run.code, run.stderr).toBe(0)
    expect(run.stdout.split('\n')[0]).toMatch(/^NAME\s+STATE\s+TIER\s+SOURCE\s+LEVEL\s+APPROVAL$/)
    expect(run.stdout).toMatch(/zendesk\.create_ticket\s+enabled\s+grant\s+grant/)
    const excluded = await toolroom(['effective-tools', 'support-escalation', '-n', 'support', '--excluded'])
    expect(excluded.stdout).toMatch(/zendesk\.create_ticket\s+shadowed\s+connector\s+connector:zendesk\s+\S+\s+\S+\s+shadowed by grant/)
    const json = JSON.parse((await toolroom(['effective-tools', 'support/support-escalation', '-o', 'json'])).stdout)
    expect(json.effectiveTools.length).toBeGreaterThan(10)
    expect((await toolroom(['effective-tools', 'support/nobody'])).code).toBe(1)
  })

  it('effective-tools --watch prints the set, then a line for each change, until Ctrl-C', async () => {
    await toolroom([
      'apply',
      '-f',
      write(
        'watch.yaml',
        `${tool('cli.watch_probe', { labels: 'app: cli-watch' })}---\nkind: Agent\napiVersion: toolroom.dev/v1alpha1\nmetadata: {name: watcher, namespace: cli}\nspec: {}\n`,
      ),
    ])
    const watching = startCli(['effective-tools', 'cli/watcher', '--watch'], { home, url: server.url, token })
    try {
      await until('the set', () => /^NAME\s+STATE/m.test(watching.stdout()), { timeoutMs: 30_000 })
      const agentDoc = `kind: Agent\napiVersion: toolroom.dev/v1alpha1\nmetadata: {name: watcher, namespace: cli}\nspec: {grants: [cli.watch_probe]}\n`
      expect((await toolroom(['apply', '-f', write('watch-grant.yaml', agentDoc)])).code).toBe(0)
      await until('the change line', () => / MODIFIED \+cli\.watch_probe$/m.test(watching.stdout()), { timeoutMs: 30_000 })
    } finally {
      const ended = await watching.stop()
      expect(ended.stderr).toBe('')
    }
    const json = startCli(['effective-tools', 'cli/watcher', '--watch', '-o', 'json'], { home, url: server.url, token })
    await until('the first event', () => json.stdout().includes('\n'), { timeoutMs: 30_000 })
    const first = JSON.parse(json.stdout().split('\n')[0])
    expect(first).toMatchObject({ type: 'ADDED', resourceVersion: expect.any(String) })
    expect(first.object.effectiveTools.map((t: { name: string }) => t.name)).toContain('cli.watch_probe')
    await json.stop()

    // --notices: events without the set; the table follows each with a conditional GET of it.
    const noticed = startCli(['effective-tools', 'cli/watcher', '--watch', '--notices'], { home, url: server.url, token })
    try {
      await until('the set', () => /^NAME\s+STATE/m.test(noticed.stdout()), { timeoutMs: 30_000 })
      expect(noticed.stdout()).toMatch(/^cli\.watch_probe\s+enabled/m)
      const ungranted = `kind: Agent\napiVersion: toolroom.dev/v1alpha1\nmetadata: {name: watcher, namespace: cli}\nspec: {}\n`
      expect((await toolroom(['apply', '-f', write('watch-ungrant.yaml', ungranted)])).code).toBe(0)
      await until('the change line', () => / MODIFIED -cli\.watch_probe$/m.test(noticed.stdout()), { timeoutMs: 30_000 })
    } finally {
      const ended = await noticed.stop()
      expect(ended.stderr).toBe('')
    }
    const noticesJson = startCli(['effective-tools', 'cli/watcher', '--watch', '--notices', '-o', 'json'], { home, url: server.url, token })
    await until('the first notice', () => noticesJson.stdout().includes('\n'), { timeoutMs: 30_000 })
    const notice = JSON.parse(noticesJson.stdout().split('\n')[0])
    expect(notice).toMatchObject({ type: 'ADDED', resourceVersion: expect.any(String), etag: expect.stringMatching(/^W\//) })
    expect(notice).not.toHaveProperty('object')
    await noticesJson.stop()
  }, 120_000)

  it('effective-tools --compare puts two agents, or an agent and a unit, side by side with why not and the fix, and exits 1 when they differ', async () => {
    const run = await toolroom(['effective-tools', 'support/support-triage', '--compare', 'support/support-faq'])
    expect(run.code, run.stderr).toBe(1)
    expect(run.stdout).toContain('Only support/support-triage can call')
    expect(run.stdout).toMatch(
      /^zendesk\.reply_to_customer\s+connector:zendesk \(unit support\)\s+disabled\s+The gateway would refuse it: .*turn zendesk\.reply_to_customer on for agent support-faq \(spec\.toggles\)$/m,
    )
    expect(run.stdout).toMatch(/tools? both can call the same way\.$/m)
    const same = await toolroom(['effective-tools', 'support-faq', '-n', 'support', '--compare', 'support-faq'])
    expect(same.code, same.stderr).toBe(0)
    expect(same.stdout).toContain('no differences')
    const unit = await toolroom(['effective-tools', 'support/support-faq', '--compare', 'unit:support/support-tier1', '-o', 'json'])
    expect(JSON.parse(unit.stdout).right).toMatchObject({ kind: 'Unit', name: 'support-tier1' })
    expect((await toolroom(['effective-tools', 'support/support-faq', '--compare', 'support/nobody'])).code).toBe(1)
  })

  it('explain says whether the agent may call the tool and why, and exits 0 only when the call would go through', async () => {
    const payment = ['--arg', 'invoiceId=AP-2026-000123', '--arg', 'amount=482000', '--arg', 'currency=EUR', '--arg', 'paymentDate=2026-12-01']
    const held = await toolroom(['explain', 'finance/ap-clerk', 'erp.schedule_payment', ...payment])
    expect(held.code, held.stderr).toBe(0)
    expect(held.stdout.split('\n')[0]).toBe('finance/ap-clerk → erp.schedule_payment: approval_required')
    expect(held.stdout).toMatch(/^idempotency key \(template\): pay-AP-2026-000123-482000-2026-12-01$/m)
    expect(held.stdout).toMatch(/^approval: required by the tool \(level financial\)/m)

    const invalid = await toolroom([
      'explain',
      'ap-clerk',
      'erp.schedule_payment',
      '-n',
      'finance',
      '--args',
      '{"invoiceId": "AP-1", "amount": "lots"}',
      '-o',
      'json',
    ])
    expect(invalid.code).toBe(1)
    const answer = JSON.parse(invalid.stdout)
    expect(answer.decision).toBe('invalid_arguments')
    expect(answer.arguments.violations.map((v: { path: string }) => v.path)).toEqual(expect.arrayContaining(['/invoiceId', '/amount']))

    // Another agent is refused by the tool's safety rule, and told the fix.
    const denied = await toolroom(['explain', 'support/support-escalation', 'erp.schedule_payment', ...payment])
    expect(denied.code).toBe(1)
    expect(denied.stdout.split('\n')[0]).toMatch(/: (denied|unknown_tool)$/)

    const unknown = await toolroom(['explain', 'finance/ap-clerk', 'no.such_tool'])
    expect(unknown.code).toBe(1)
    expect(unknown.stdout.split('\n')[0]).toBe('finance/ap-clerk → no.such_tool: unknown_tool')

    for (const args of [
      ['--args', '[1]'],
      ['--args', '{oops'],
      ['--arg', 'novalue'],
    ]) {
      const usage = await toolroom(['explain', 'finance/ap-clerk', 'erp.schedule_payment', ...args])
      expect(usage.code, args.join(' ')).toBe(2)
      expect(usage.stderr).toMatch(/--arg/)
    }
    expect((await toolroom(['explain', 'finance/nobody', 'erp.schedule_payment'])).code).toBe(1)
  })

  it('approvals list, approve and deny', async () => {
    const agent = await prisma.agent.findUniqueOrThrow({ where: { namespace_name: { namespace: 'support', name: 'support-escalation' } } })
    const pending = async () => {
      const callRow = await prisma.toolCall.create({
        data: {
          agentId: agent.id,
          agentNamespace: 'support',
          agentName: agent.name,
          unit: 'support-escalations',
          toolId: 'stripe.create_refund',
          toolNamespace: 'stripe',
          provenance: 'grant',
          level: 'financial',
          channel: 'mcp',
          outcome: 'pending_approval',
          idempotencyKey: `key-${randomUUID()}`,
        },
      })
      return requestApproval({
        callId: callRow.id,
        agent: { id: agent.id, namespace: 'support', name: agent.name, unit: 'support-escalations' },
        tool: { id: 'stripe.create_refund', namespace: 'stripe', level: 'financial' },
        approvalSource: 'default',
        args: { charge: 'ch_1' },
        redactedArgs: { charge: 'ch_1' },
        idempotencyKey: callRow.idempotencyKey,
        rateLimit: { tool: { callsPerMinute: 2, callsPerDay: 100 }, agent: { callsPerMinute: null, callsPerDay: null } },
      })
    }
    const [first, second] = [await pending(), await pending()]
    const list = await toolroom(['approvals', 'list'])
    expect(list.code, list.stderr).toBe(0)
    expect(list.stdout).toContain(first.id)
    expect(list.stdout).toMatch(/pending\s+support\/support-escalation\s+stripe\.create_refund\s+financial/)
    const approved = await toolroom(['approvals', 'approve', first.id, '--comment', 'checked with the customer'])
    expect(approved.code, approved.stderr).toBe(0)
    expect(approved.stdout).toBe('stripe.create_refund for support/support-escalation: approved\n')
    const twice = await toolroom(['approvals', 'deny', first.id])
    expect(twice.code).toBe(1)
    expect(twice.stderr).toMatch(/Conflict/)
    expect((await toolroom(['approvals', 'deny', second.id, '-o', 'json'])).stdout).toContain('"status": "denied"')
    expect((await toolroom(['approvals', 'list', '--status', 'denied', '-o', 'yaml'])).stdout).toContain(`id: ${second.id}`)
    expect((await toolroom(['approvals', 'list', '--status', 'maybe'])).code).toBe(2)
    expect((await toolroom(['approvals', 'approve', 'not-a-uuid'])).code).toBe(1)
    // A window long enough that a CLI process started on a busy machine still finds it open.
    process.env.TOOLROOM_APPROVAL_UNDO_SECONDS = '60'
    reloadConfig()
    try {
      const third = await pending()
      expect((await toolroom(['approvals', 'approve', third.id])).code).toBe(0)
      const undone = await toolroom(['approvals', 'undo', third.id])
      expect(undone.code, undone.stderr).toBe(0)
      expect(undone.stdout).toBe('stripe.create_refund for support/support-escalation: pending again (decision undone)\n')
      const again = await toolroom(['approvals', 'undo', third.id])
      expect(again.code).toBe(1)
      expect(again.stderr).toMatch(/no decision to undo/)
    } finally {
      delete process.env.TOOLROOM_APPROVAL_UNDO_SECONDS
      reloadConfig()
    }
  })

  it('approvals list and show say what the call will do, and the reason of the Policy rule that held it', async () => {
    const agent = await prisma.agent.findUniqueOrThrow({ where: { namespace_name: { namespace: 'support', name: 'support-escalation' } } })
    const refund = await prisma.tool.findUniqueOrThrow({ where: { namespace_name: { namespace: 'finance', name: 'stripe.create_refund' } } })
    const spec = refund.spec as { description: string; inputSchema: unknown }
    const callRow = await prisma.toolCall.create({
      data: {
        agentId: agent.id,
        agentNamespace: 'support',
        agentName: agent.name,
        toolId: 'stripe.create_refund',
        toolNamespace: 'stripe',
        provenance: 'grant',
        level: 'financial',
        channel: 'mcp',
        outcome: 'pending_approval',
      },
    })
    const args = { charge: 'ch_1', amount: 12500, reason: 'duplicate', ticketId: 42 }
    const request = await requestApproval({
      callId: callRow.id,
      agent: { id: agent.id, namespace: 'support', name: agent.name, unit: null },
      tool: {
        id: 'stripe.create_refund',
        namespace: 'stripe',
        level: 'financial',
        resourceNamespace: 'finance',
        description: spec.description,
        inputSchema: spec.inputSchema,
      },
      approvalSource: 'policy_rule',
      policyRules: [{ policy: 'finance/large-refunds', rule: 0, reason: 'Refunds above 100.00 need a second person' }],
      args,
      redactedArgs: args,
      idempotencyKey: null,
    })
    const list = await toolroom(['approvals', 'list'])
    expect(list.code, list.stderr).toBe(0)
    expect(list.stdout.split('\n').find((l) => l.startsWith(request.id))).toMatch(
      /Refund \$125\.00 of charge ch_1 \(duplicate\) \[policy finance\/large-refunds: Refunds above 100\.00 need a second person\]$/,
    )
    const show = await toolroom(['approvals', 'show', request.id])
    expect(show.code, show.stderr).toBe(0)
    const lines = show.stdout.split('\n')
    expect(lines[0]).toBe('Refund $125.00 of charge ch_1 (duplicate)')
    expect(lines[1]).toBe(`  ${spec.description}`)
    expect(show.stdout).toMatch(/^Policy +Refunds above 100\.00 need a second person \(finance\/large-refunds, rule 0\)$/m)
    expect(show.stdout).toMatch(/^Amount +\$125\.00$/m)
    expect(show.stdout).toMatch(/^Ticket +42 <https:\/\/northwind\.zendesk\.com\/agent\/tickets\/42>$/m)
    expect(show.stdout).not.toMatch(/^Acts for them until/m)
    expect((await toolroom(['approvals', 'show', request.id, '-o', 'json'])).stdout).toContain('"summaryLine": "Refund $125.00 of charge ch_1 (duplicate)"')
    // Held for a person whose own token ends before the request does: the approver is told until when.
    const until = new Date(Date.now() + 9 * 60_000 + 30_000)
    await prisma.approvalRequest.update({
      where: { id: request.id },
      data: {
        onBehalfOfIssuer: 'https://idp.example',
        onBehalfOfSubject: 'jane',
        onBehalfOfDisplayName: 'Jane Doe',
        onBehalfOfVia: 'token_exchange',
        subjectExpiresAt: until,
      },
    })
    const forJane = await toolroom(['approvals', 'show', request.id])
    expect(forJane.stdout).toMatch(/^Agent +support\/support-escalation for Jane Doe$/m)
    expect(forJane.stdout).toContain(`Acts for them until   ${until.toISOString()} (10m left); approved later, the call does not run for them`)
    expect((await toolroom(['approvals', 'show', 'not-a-uuid'])).code).toBe(1)
  })

  it('calls lists recorded calls, by agent name', async () => {
    const agent = await prisma.agent.findUniqueOrThrow({ where: { namespace_name: { namespace: 'support', name: 'support-triage' } } })
    await insertCalls({ count: 3, agentId: agent.id, tool: 'zendesk.create_ticket', outcome: 'failed' })
    const run = await toolroom(['calls', '--agent', 'support/support-triage', '--outcome', 'failed'])
    expect(run.code, run.stderr).toBe(0)
    expect(run.stdout.split('\n').filter((l) => l.includes('zendesk.create_ticket'))).toHaveLength(3)
    expect(run.stdout).toContain('upstream answered 502')
    expect((await toolroom(['calls', '--limit', '0'])).code).toBe(2)
    const outcome = await toolroom(['calls', '--outcome', 'exploded'])
    expect(outcome.code).toBe(2)
    expect(outcome.stderr).toContain('--outcome is one of succeeded, failed,')
    expect((await toolroom(['calls', '--agent', 'support/nobody'])).code).toBe(1)
  })

  it('stats prints the 7 days by day, and --by person the calls per person with "(no person)" for the rest', async () => {
    const [first, second] = await insertCalls({ count: 5, tool: 'zendesk.create_ticket', outcome: 'succeeded' })
    await prisma.toolCall.updateMany({
      where: { id: { in: [first, second] } },
      data: { onBehalfOfIssuer: 'https://sso.corp.test', onBehalfOfSubject: 'jane-0042', onBehalfOfDisplayName: 'Jane Doe' },
    })
    await rollupCallStats()
    const byPerson = await toolroom(['stats', '--by', 'person'])
    expect(byPerson.code, byPerson.stderr).toBe(0)
    const lines = byPerson.stdout.trim().split('\n')
    expect(lines[0]).toMatch(/^PERSON\s+SUBJECT\s+ISSUER\s+CALLS\s+FAILURES\s+FAILURE RATE\s+REFUSED\s+AGENTS$/)
    expect(lines.find((l) => l.startsWith('Jane Doe'))).toMatch(/^Jane Doe\s+jane-0042\s+https:\/\/sso\.corp\.test\s+2\s+0\s+0\.0%\s+0\s+[12]$/)
    expect(lines.some((l) => l.startsWith('(no person)'))).toBe(true)
    const json = JSON.parse((await toolroom(['stats', '--by', 'person', '-o', 'json'])).stdout)
    expect(json.items).toContainEqual(
      expect.objectContaining({ onBehalfOf: { issuer: 'https://sso.corp.test', subject: 'jane-0042', displayName: 'Jane Doe' }, calls: 2 }),
    )
    const byDay = await toolroom(['stats'])
    expect(byDay.code, byDay.stderr).toBe(0)
    expect(byDay.stdout.split('\n')[0]).toMatch(/^DAY\s+CALLS\s+FAILURES/)
    expect(byDay.stdout).toMatch(/^7 days\s+\d+/m)
    expect((await toolroom(['stats', '--by', 'team'])).code).toBe(2)
    expect((await toolroom(['stats', '--by', 'person', '--limit', '0'])).code).toBe(2)
  })
})

describe('contexts', () => {
  it('set, use and list contexts; flags beat the environment, which beats the context; tokens stay private', async () => {
    const env = { TOOLROOM_URL: undefined, TOOLROOM_TOKEN: undefined }
    const none = await toolroom(['get', 'tools'], { env })
    expect(none.code).toBe(2)
    expect(none.stderr).toContain('no server')
    expect((await toolroom(['config', 'set-context', 'local', '--server', server.url, '--token', token, '--namespace', 'finance'], { env })).code).toBe(0)
    expect((await toolroom(['config', 'set-context', 'broken', '--server', 'http://127.0.0.1:9', '--token', token], { env })).code).toBe(0)
    const file = path.join(home, 'config.yaml')
    expect(fs.statSync(file).mode & 0o777).toBe(0o600)
    const contexts = await toolroom(['config', 'get-contexts'], { env })
    expect(contexts.stdout).toMatch(/\*\s+local\s+http/)
    const viewed = await toolroom(['config', 'view'], { env })
    expect(viewed.code).toBe(0)
    expect(viewed.stdout).not.toContain(token)
    expect(viewed.stdout).toContain(`${token.slice(0, 8)}…`)

    const viaContext = await toolroom(['get', 'tools'], { env })
    expect(viaContext.code, viaContext.stderr).toBe(0)
    expect((await toolroom(['get', 'tool', 'stripe.create_refund', '-o', 'json'], { env })).code).toBe(0) // the context's namespace
    expect((await toolroom(['get', 'tools', '--context', 'broken'], { env })).code).toBe(1)
    expect((await toolroom(['get', 'tools', '--context', 'nope'], { env })).code).toBe(2)
    expect((await toolroom(['config', 'use-context', 'broken'], { env })).code).toBe(0)
    expect((await toolroom(['get', 'tools'], { env })).code).toBe(1)
    expect((await toolroom(['get', 'tools'], { env: { TOOLROOM_TOKEN: undefined } })).stdout).toContain('stripe.create_refund') // TOOLROOM_URL beats the context
    expect((await toolroom(['get', 'tools', '--server', server.url, '--token', token], { env })).code).toBe(0)
    expect((await toolroom(['config', 'delete-context', 'broken'], { env })).code).toBe(0)
    expect((await toolroom(['config', 'use-context', 'broken'], { env })).code).toBe(2)
    write('garbage.yaml', 'contexts: 5\n')
    expect((await toolroom(['get', 'tools', '--config', path.join(home, 'garbage.yaml')], { env })).code).toBe(2)
  })
})

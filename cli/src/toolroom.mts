#!/usr/bin/env node
// toolroom: GitOps and the command line for Toolroom, over its REST API only (README, "GitOps").
import { Command, CommanderError, Option } from 'commander'
import { VERSION } from './client.mjs'
import { connection, type GlobalOptions } from './config.mjs'
import { ApiError, EXIT, UsageError } from './errors.mjs'
import { APPROVAL_STATUSES, CALL_OUTCOMES, SIDE_EFFECT_LEVELS } from './generated/openapi.mjs'
import { ManifestError } from './manifests.mjs'
import { err, type Format, painter } from './output.mjs'
import { apply, diff } from './commands/apply.mjs'
import * as contexts from './commands/config.mjs'
import { explain } from './commands/explain.mjs'
import { exportCalls } from './commands/calls-export.mjs'
import { calls, decide, effectiveTools, listApprovals, showApproval, undo } from './commands/fleet.mjs'
import { get, remove } from './commands/get.mjs'
import { policyTest } from './commands/policy-test.mjs'
import { render } from './commands/render.mjs'
import { stats, STATS_VIEWS } from './commands/stats.mjs'

/** What a failure exits with while the current command runs (`diff` answers 1 for differences, so its failures are 2). */
let failureCode: number = EXIT.failed

const collect = (value: string, previous: string[]) => [...previous, value]
const output = (formats: Format[] | ('text' | 'yaml' | 'json')[], fallback: string) =>
  new Option('-o, --output <format>', 'output format').choices(formats).default(fallback)

const program = new Command('toolroom')
  .description('Apply, diff, get and delete Toolroom resources from manifests kept in git, and read effective tool sets, approvals, calls and statistics.')
  .version(VERSION)
  .option('--server <url>', 'Toolroom base URL (else TOOLROOM_URL, else the current context)')
  .option('--token <token>', 'API token trk_… (else TOOLROOM_TOKEN, else the current context)')
  .option('--context <name>', 'context of the config file to use')
  .option('--config <file>', 'config file (else TOOLROOM_CONFIG, else ~/.config/toolroom/config.yaml)')
  .showHelpAfterError('(toolroom --help lists the commands; toolroom COMMAND --help explains one)')
  .exitOverride()

const globals = (): GlobalOptions => program.opts<GlobalOptions>()
const run = (action: () => Promise<number> | number) => async () => {
  process.exitCode = await action()
}

program
  .command('apply')
  .description('Apply manifests, all or nothing; with --prune -l, delete what carries those labels but is not in them')
  .option('-f, --filename <path>', 'a file, a directory of manifests, or - for stdin (repeatable)', collect, [])
  .option('-R, --recursive', 'read the directories of -f and everything below them')
  .option('--dry-run', 'validate and show what would change, write nothing')
  .option('--prune', 'delete the resources that match -l and are not in the manifests')
  .option('-l, --selector <selector>', 'label selector of the set the manifests own (with --prune), e.g. app.kubernetes.io/managed-by=gitops')
  .addOption(output(['text', 'yaml', 'json'], 'text'))
  .action(function (this: Command) {
    return run(() => apply(connection(globals()), this.opts()))()
  })

program
  .command('diff')
  .description(
    'Show what applying the manifests would change, field by field, and which agents would gain, lose or see a tool change. Exit 0: no differences; 1: differences; 2: failed',
  )
  .option('-f, --filename <path>', 'a file, a directory of manifests, or - for stdin (repeatable)', collect, [])
  .option('-R, --recursive', 'read the directories of -f and everything below them')
  .option('--prune', 'also show what --prune would delete')
  .option('-l, --selector <selector>', 'label selector of the set the manifests own (with --prune)')
  .addOption(output(['text', 'yaml', 'json'], 'text'))
  .action(function (this: Command) {
    failureCode = EXIT.diffFailed
    return run(() => diff(connection(globals()), this.opts()))()
  })

program
  .command('get')
  .description('List resources of a kind, or show one; -o yaml|json prints what applies again unchanged')
  .argument('<kind>', 'tools, languagetools (mcpservers), connectors, units, agents, secrets, sideeffectpolicies (policies)')
  .argument('[name]', 'a name (in -n NAMESPACE, default "default"), namespace/name, or an id')
  .option('-n, --namespace <namespace>', 'only this namespace (lists show every namespace without it)')
  .option('-l, --selector <selector>', 'label selector, e.g. "team=payments,tier in (gold,silver),!deprecated"')
  .addOption(output(['table', 'yaml', 'json'], 'table'))
  .action(function (this: Command, kind: string, name?: string) {
    return run(() => get(connection(globals()), kind, name, this.opts()))()
  })

program
  .command('delete')
  .description('Delete the resources of manifests (-f), or one resource by kind and name')
  .argument('[kind]', 'the kind, as for get')
  .argument('[name]', 'a name, namespace/name, or an id')
  .option('-f, --filename <path>', 'a file, a directory of manifests, or - for stdin (repeatable)', collect, [])
  .option('-R, --recursive', 'read the directories of -f and everything below them')
  .option('-n, --namespace <namespace>', 'the namespace of NAME')
  .option('--ignore-not-found', 'a resource that is not there is not an error')
  .action(function (this: Command, kind?: string, name?: string) {
    return run(() => remove(connection(globals()), kind, name, this.opts()))()
  })

program
  .command('effective-tools')
  .description("An agent's effective tool set with provenance, state and approval; --excluded adds shadowed and denied entries with their reasons")
  .argument('<agent>', 'a name (in -n NAMESPACE), namespace/name, or an id')
  .option('-n, --namespace <namespace>', "the agent's namespace")
  .option('--excluded', 'add the shadowed and denied entries')
  .option('-w, --watch', 'after the set, print each change as it happens (json: one event per line) until Ctrl-C')
  .option(
    '--notices',
    'with --watch: events carry the resourceVersion and the ETag, not the set (json: one notice per line); a table fetches the set after each one',
  )
  .option(
    '--compare <other>',
    "put the set beside another agent's (a name, namespace/name or id), or a unit's (unit:NAME): what only one can call, why not, and the fix; exits 1 when they differ",
  )
  .addOption(output(['table', 'yaml', 'json'], 'table'))
  .action(function (this: Command, agent: string) {
    return run(() => effectiveTools(connection(globals()), agent, this.opts()))()
  })

program
  .command('explain')
  .description(
    'Can the agent call this tool, and why: the decision and trace the gateway would give now, without calling anything; exits 0 when the call would run or wait for an approval, 1 when it would be refused',
  )
  .argument('<agent>', 'a name (in -n NAMESPACE), namespace/name, or an id')
  .argument('<tool>', 'the tool name, as the agent would call it')
  .option('-n, --namespace <namespace>', "the agent's namespace")
  .option('--args <json>', 'the arguments as a JSON object')
  .option('--arg <key=value>', 'one argument (repeatable); a value that is JSON is taken as such', collect, [])
  .option('--idempotency-key <key>', 'the key the caller would send')
  .option('--person <subject>', 'the person the agent would act for: their subject at --person-issuer')
  .option('--person-issuer <url>', "the person's issuer: a trusted IdentityProvider's, or Toolroom's own <origin>/api/auth")
  .option('--person-name <name>', "the person's display name, for the identity chain")
  .addOption(output(['text', 'yaml', 'json'], 'text'))
  .action(function (this: Command, agent: string, tool: string) {
    return run(() => explain(connection(globals()), agent, tool, this.opts()))()
  })

program
  .command('render')
  .description(
    "The Kubernetes workload of a LanguageTool's deploymentMode (Toolroom runs none itself): the Deployment and Service (service) or the agent pod's container (sidecar), for kubectl apply",
  )
  .argument('<languagetool>', 'a name (in -n NAMESPACE), namespace/name, or an id')
  .option('-n, --namespace <namespace>', "the LanguageTool's namespace")
  .option('--full', 'the whole answer: mode, endpoint and the objects')
  .addOption(output(['yaml', 'json'], 'yaml'))
  .action(function (this: Command, languageTool: string) {
    return run(() => render(connection(globals()), languageTool, this.opts()))()
  })

const policy = program.command('policy').description('Policies: test one against sample calls')
policy
  .command('test')
  .description(
    'Judge a Policy (applied, or from a manifest file) against the sample calls of a cases file, each with the effect it expects, as the gateway would; exits 0 when every case gets its effect, 1 when one does not',
  )
  .option('-f, --filename <file>', 'the cases file (YAML or JSON; - for stdin): policy or policyFile, and cases')
  .option('--policy <name>', "an applied Policy to test (a name in -n NAMESPACE, or namespace/name), instead of the file's")
  .option('--policy-file <file>', "a manifest file with the Policy to test as written, instead of the file's")
  .option('-n, --namespace <namespace>', "the Policy's namespace")
  .addOption(output(['text', 'yaml', 'json'], 'text'))
  .action(function (this: Command) {
    return run(() => policyTest(connection(globals()), this.opts()))()
  })

const approvals = program.command('approvals').description('The approval queue: list requests, show one, approve or deny one, undo a decision')
approvals
  .command('list')
  .description('Pending requests oldest first (--status for decided ones)')
  .option('--status <status>', `one of ${APPROVAL_STATUSES.join(', ')}`, 'pending')
  .option('--level <level>', `only this side-effect level: ${SIDE_EFFECT_LEVELS.join(', ')}`)
  .option('--limit <n>', 'at most this many (default 50)')
  .addOption(output(['table', 'yaml', 'json'], 'table'))
  .action(function (this: Command) {
    return run(() => listApprovals(connection(globals()), this.opts()))()
  })
approvals
  .command('show')
  .description('One request: what the call will do, the Policy rules that hold it, its arguments, who asks')
  .argument('<id>', 'the approval request id')
  .addOption(output(['table', 'yaml', 'json'], 'table'))
  .action(function (this: Command, id: string) {
    return run(() => showApproval(connection(globals()), id, this.opts()))()
  })
for (const decision of ['approve', 'deny'] as const)
  approvals
    .command(decision)
    .description(decision === 'approve' ? 'Approve a pending call; a worker then runs it once' : 'Deny a pending call; it never runs')
    .argument('<id>', 'the approval request id')
    .option('--comment <text>', 'why, for the record')
    .addOption(output(['table', 'yaml', 'json'], 'table'))
    .action(function (this: Command, id: string) {
      return run(() => decide(connection(globals()), decision, id, this.opts()))()
    })
approvals
  .command('undo')
  .description('Take back your decision before it takes effect (a few seconds after it): the request is pending again and the call does not run')
  .argument('<id>', 'the approval request id')
  .addOption(output(['table', 'yaml', 'json'], 'table'))
  .action(function (this: Command, id: string) {
    return run(() => undo(connection(globals()), id, this.opts()))()
  })

const callsCommand = program
  .command('calls')
  .description('Recorded tool calls, newest first; `calls export` writes a time range of them as NDJSON')
  .option('--agent <agent>', 'only this agent: a name (in -n NAMESPACE), namespace/name, or an id')
  .option('-n, --namespace <namespace>', "the agent's namespace")
  .option('--tool <id>', 'only this tool id, e.g. zendesk.create_ticket')
  .option('--outcome <outcome>', `only this outcome: ${CALL_OUTCOMES.join(', ')}`)
  .option('--limit <n>', 'at most this many (default 50)')
  .addOption(output(['table', 'yaml', 'json'], 'table'))
  .action(function (this: Command) {
    return run(() => calls(connection(globals()), this.opts()))()
  })
callsCommand
  .command('export')
  .description('The calls started from --since until --until (default now) as NDJSON, one call per line, oldest first, as stored (redacted as the call log is)')
  .option('--since <time>', 'start: 2026-11-01T09:00:00Z, a UTC day (2026-11-01), or a span back from now (90m, 24h, 7d)')
  .option('--until <time>', 'end (not included), in the same forms; default now')
  .option('--file <path>', 'write to this file (mode 0600) instead of stdout')
  .action(function (this: Command) {
    return run(() => exportCalls(connection(globals()), this.opts()))()
  })

program
  .command('stats')
  .description('Statistics of every call over the last 7 days (today and the six previous UTC days): by day, or by the person the calls were made for')
  .addOption(
    new Option(
      '--by <view>',
      'day: calls, failures and latency per day; person: calls, failures and agents per person, the calls made for nobody as "(no person)"',
    )
      .choices([...STATS_VIEWS])
      .default('day'),
  )
  .option('--limit <n>', 'with --by person: at most this many people (default 20)')
  .addOption(output(['table', 'yaml', 'json'], 'table'))
  .action(function (this: Command) {
    return run(() => stats(connection(globals()), this.opts()))()
  })

const config = program.command('config').description('Named contexts (server, token, namespace) in the config file')
config
  .command('view')
  .description('The config file, tokens shortened')
  .action(run(() => contexts.view(globals())))
config
  .command('get-contexts')
  .description('The contexts, the current one marked')
  .action(run(() => contexts.getContexts(globals())))
config
  .command('use-context')
  .description('Make a context the current one')
  .argument('<name>')
  .action((name: string) => run(() => contexts.useContext(globals(), name))())
config
  .command('set-context')
  .description('Add or change a context (the first one becomes current)')
  .argument('<name>')
  .option('--server <url>', 'Toolroom base URL')
  .option('--token <token>', 'API token trk_… (stored in the file, mode 0600)')
  .option('--token-file <file>', 'read the token from this file at each use instead')
  .option('--namespace <namespace>', 'default namespace')
  .action(function (this: Command, name: string) {
    // --server and --token are also the program's own options, which commander reads wherever they stand.
    const own = this.opts<{ server?: string; token?: string; tokenFile?: string; namespace?: string }>()
    const { server, token } = globals()
    return run(() => contexts.setContext(globals(), name, { ...own, server: own.server ?? server, token: own.token ?? token }))()
  })
config
  .command('delete-context')
  .description('Remove a context')
  .argument('<name>')
  .action((name: string) => run(() => contexts.deleteContext(globals(), name))())

// The options a subcommand shares with the program (--server before or after the command name).
for (const command of program.commands) command.exitOverride()

function report(error: unknown): number {
  const paint = painter(process.stderr)
  const label = paint('red', 'error:')
  if (error instanceof CommanderError) {
    // Help and --version exit 0; a command line commander did not understand has been explained already.
    if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version' || error.code === 'commander.help') return EXIT.ok
    return EXIT.usage
  }
  if (error instanceof UsageError) {
    err(`${label} ${error.message}`)
    return EXIT.usage
  }
  if (error instanceof ManifestError) {
    err(`${label} ${error.message}`)
    return failureCode
  }
  if (error instanceof ApiError) {
    err(`${label} ${error.title}: ${error.message}`)
    for (const p of error.problems) {
      const at = error.locate?.(p)
      const what = p.kind ? `${p.kind}${p.name ? ` ${p.name}` : ''}` : p.document !== undefined ? `document ${p.document}` : ''
      const prefix = [at, what].filter(Boolean).join(' ')
      err(`  ${prefix ? `${prefix}: ` : ''}${paint('bold', p.field)}: ${p.message} ${paint('dim', `(${p.rule})`)}`)
    }
    return failureCode
  }
  err(`${label} ${(error as Error).message ?? String(error)}`)
  return failureCode
}

try {
  await program.parseAsync(process.argv)
} catch (error) {
  process.exitCode = report(error)
}

// Where the CLI connects and as whom: --server/--token flags, else TOOLROOM_URL/TOOLROOM_TOKEN, else
// the current context of the config file (named contexts, like a kubeconfig):
//
//   currentContext: prod
//   contexts:
//     - name: prod
//       server: https://toolroom.example.com
//       token: trk_…            # or tokenFile: /run/secrets/toolroom-token
//       namespace: finance      # default namespace for get/delete/effective-tools
//
// The file is $TOOLROOM_CONFIG, else ~/.config/toolroom/config.yaml; the CLI writes it with mode 0600.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { parse } from 'yaml'
import { UsageError } from './errors.mjs'
import { yamlText } from './output.mjs'

export interface Context {
  name: string
  server: string
  token?: string
  tokenFile?: string
  namespace?: string
}

export interface ConfigFile {
  currentContext?: string
  contexts: Context[]
}

export interface GlobalOptions {
  server?: string
  token?: string
  context?: string
  config?: string
}

export interface Connection {
  server: string
  token: string | null
  namespace?: string
}

export function configPath(options: GlobalOptions): string {
  return options.config ?? process.env.TOOLROOM_CONFIG ?? path.join(os.homedir(), '.config', 'toolroom', 'config.yaml')
}

export function readConfig(file: string): ConfigFile {
  if (!fs.existsSync(file)) return { contexts: [] }
  let value: unknown
  try {
    value = parse(fs.readFileSync(file, 'utf8'), { schema: 'core', uniqueKeys: true })
  } catch (e) {
    throw new UsageError(`${file}: not a readable config file: ${(e as Error).message.split('\n')[0]}`)
  }
  if (value === null || value === undefined) return { contexts: [] }
  const config = value as Partial<ConfigFile>
  if (typeof config !== 'object' || (config.contexts !== undefined && !Array.isArray(config.contexts)))
    throw new UsageError(`${file}: expected "currentContext" and a list of "contexts"`)
  for (const [i, c] of (config.contexts ?? []).entries())
    if (!c || typeof c.name !== 'string' || typeof c.server !== 'string') throw new UsageError(`${file}: contexts[${i}] needs a name and a server`)
  return { currentContext: config.currentContext, contexts: config.contexts ?? [] }
}

export function writeConfig(file: string, config: ConfigFile) {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 })
  // The file holds tokens: readable by its owner only, also when it already existed.
  fs.writeFileSync(file, yamlText(config), { mode: 0o600 })
  fs.chmodSync(file, 0o600)
}

export function connection(options: GlobalOptions): Connection {
  const file = configPath(options)
  const config = readConfig(file)
  const name = options.context ?? config.currentContext
  const context = name ? config.contexts.find((c) => c.name === name) : undefined
  if (options.context && !context) throw new UsageError(`no context "${options.context}" in ${file}`)
  const server = options.server ?? process.env.TOOLROOM_URL ?? context?.server
  if (!server) throw new UsageError('no server: pass --server, set TOOLROOM_URL, or add a context with `toolroom config set-context`')
  let url: URL
  try {
    url = new URL(server)
  } catch {
    throw new UsageError(`"${server}" is not a URL (e.g. https://toolroom.example.com)`)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`the server must be an http(s) URL, not ${url.protocol}`)
  const token = options.token ?? process.env.TOOLROOM_TOKEN ?? tokenOf(context)
  return { server: url.toString().replace(/\/+$/, ''), token: token ?? null, namespace: context?.namespace }
}

function tokenOf(context: Context | undefined): string | undefined {
  if (!context) return undefined
  if (context.token) return context.token
  if (!context.tokenFile) return undefined
  try {
    return fs.readFileSync(context.tokenFile, 'utf8').trim()
  } catch (e) {
    throw new UsageError(`context "${context.name}": cannot read tokenFile ${context.tokenFile}: ${(e as Error).message}`)
  }
}

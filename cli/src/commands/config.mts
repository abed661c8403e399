// `toolroom config`: named contexts (server, token, default namespace) in the config file, like
// kubectl's kubeconfig. Tokens are never printed.
import { configPath, type GlobalOptions, readConfig, writeConfig } from '../config.mjs'
import { EXIT, UsageError } from '../errors.mjs'
import { out, table, yamlText } from '../output.mjs'

export function view(options: GlobalOptions): number {
  const config = readConfig(configPath(options))
  const masked = { ...config, contexts: config.contexts.map((c) => ({ ...c, ...(c.token ? { token: `${c.token.slice(0, 8)}…` } : {}) })) }
  process.stdout.write(yamlText(masked))
  return EXIT.ok
}

export function getContexts(options: GlobalOptions): number {
  const config = readConfig(configPath(options))
  out(
    table(
      ['current', 'name', 'server', 'namespace'],
      config.contexts.map((c) => [c.name === config.currentContext ? '*' : ' ', c.name, c.server, c.namespace]),
    ),
  )
  return EXIT.ok
}

export function useContext(options: GlobalOptions, name: string): number {
  const file = configPath(options)
  const config = readConfig(file)
  if (!config.contexts.some((c) => c.name === name)) throw new UsageError(`no context "${name}" in ${file}`)
  writeConfig(file, { ...config, currentContext: name })
  out(`Switched to context "${name}".`)
  return EXIT.ok
}

export function setContext(options: GlobalOptions, name: string, fields: { server?: string; token?: string; tokenFile?: string; namespace?: string }): number {
  if (!/^[A-Za-z0-9._-]{1,100}$/.test(name)) throw new UsageError('a context name is letters, digits, ".", "_" and "-"')
  if (fields.token && fields.tokenFile) throw new UsageError('give --token or --token-file, not both')
  const file = configPath(options)
  const config = readConfig(file)
  const existing = config.contexts.find((c) => c.name === name)
  const server = fields.server ?? existing?.server
  if (!server) throw new UsageError(`a new context needs --server`)
  const context = {
    name,
    server,
    ...(fields.token
      ? { token: fields.token }
      : fields.tokenFile
        ? { tokenFile: fields.tokenFile }
        : existing?.token
          ? { token: existing.token }
          : existing?.tokenFile
            ? { tokenFile: existing.tokenFile }
            : {}),
    ...((fields.namespace ?? existing?.namespace) ? { namespace: fields.namespace ?? existing?.namespace } : {}),
  }
  const contexts = existing ? config.contexts.map((c) => (c.name === name ? context : c)) : [...config.contexts, context]
  writeConfig(file, { currentContext: config.currentContext ?? name, contexts })
  out(`Context "${name}" ${existing ? 'changed' : 'added'} in ${file}.`)
  return EXIT.ok
}

export function deleteContext(options: GlobalOptions, name: string): number {
  const file = configPath(options)
  const config = readConfig(file)
  if (!config.contexts.some((c) => c.name === name)) throw new UsageError(`no context "${name}" in ${file}`)
  writeConfig(file, {
    ...(config.currentContext === name ? {} : { currentContext: config.currentContext }),
    contexts: config.contexts.filter((c) => c.name !== name),
  })
  out(`Context "${name}" deleted.`)
  return EXIT.ok
}

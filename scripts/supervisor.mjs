// Child processes of `npm start`: one-off steps that must succeed, and long-running services that
// die with us (even if we are SIGKILLed) and take us down if they exit. The services run in process
// groups of their own, so a Ctrl-C in the terminal reaches only us, and we stop them in order: the
// workers first, while what their jobs use is still up, then the web server, then the rest.
import { spawn } from 'node:child_process'
import { stopChild } from './stop-child.mjs'
import { waitHealthy } from './wait-healthy.mjs'

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP']

export function createSupervisor({ log, onStop }) {
  /** Each child with its stop order: lower stops first. */
  const children = new Map()
  let shuttingDown = false

  function spawnNode(args, { keepAlive, quiet, told = false, stopOrder = 0, env: extraEnv = {} }) {
    const stdio = keepAlive || told ? ['inherit', 'inherit', 'inherit', 'ipc'] : ['inherit', quiet ? 'pipe' : 'inherit', quiet ? 'pipe' : 'inherit']
    const prefix = keepAlive ? ['--require', './scripts/exit-with-parent.cjs'] : []
    const env = keepAlive ? { ...process.env, ...extraEnv, TOOLROOM_SUPERVISED: '1' } : process.env
    const child = spawn(process.execPath, [...prefix, ...args], { stdio, env, detached: keepAlive })
    children.set(child, stopOrder)
    child.once('exit', () => children.delete(child))
    return child
  }

  async function shutdown(code = 0) {
    if (shuttingDown) return
    shuttingDown = true
    log('stopping…')
    const orders = [...new Set(children.values())].sort((a, b) => a - b)
    for (const order of orders) await Promise.all([...children].filter(([, o]) => o === order).map(([child]) => stopChild(child, 10_000)))
    await onStop()
    log('stopped')
    process.exit(code)
  }

  for (const signal of SIGNALS) process.on(signal, () => shutdown(0))
  // If npm dies without passing a signal on, we are re-parented: stop too.
  const parent = process.ppid
  setInterval(() => process.ppid !== parent && shutdown(0), 500).unref()

  return {
    shutdown,
    /**
     * Runs a step to completion; rejects (with its output, if it was quiet) when it fails. `tellWhen`: a
     * promise; the step starts at once (loading its modules) and is sent a message when it resolves,
     * for which a step run with `--when-told` waits before it begins its work.
     */
    runOnce(name, args, { quiet = false, tellWhen } = {}) {
      return new Promise((resolve, reject) => {
        const child = spawnNode(tellWhen ? [...args, '--when-told'] : args, { keepAlive: false, quiet, told: Boolean(tellWhen) })
        tellWhen?.then(
          () => child.connected && child.send('go'),
          () => {},
        )
        let output = ''
        child.stdout?.on('data', (d) => (output += d))
        child.stderr?.on('data', (d) => (output += d))
        child.once('exit', (code, signal) => {
          if (shuttingDown) return // shutdown() is exiting the process; leave the step pending
          if (code === 0) resolve()
          else reject(new Error(`${name} failed (${code ?? signal})${output ? `:\n${output.trim()}` : ''}`))
        })
      })
    },
    /** `stopOrder`: services with a lower one are stopped (and waited for) before the others; `env`: variables of its own. */
    keepRunning(name, args, { stopOrder = 0, env = {} } = {}) {
      const child = spawnNode(args, { keepAlive: true, stopOrder, env })
      child.once('exit', (code, signal) => {
        if (shuttingDown) return
        log(`${name} exited (${code ?? signal}); stopping everything`)
        shutdown(1)
      })
    },
    waitHealthy,
  }
}

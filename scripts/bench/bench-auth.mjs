// Credentials for the benchmarks: the API wants a caller since sign-in landed. The bench database
// gets an admin API token (through the same code as TOOLROOM_ADMIN_TOKEN at start) and, for page
// loads, a person to sign in as.
import { spawn } from 'node:child_process'
import { TSX_NODE_ARGS } from '../tsx-node-args.mjs'

export const BENCH_TOKEN = 'trk_bench-admin-token-0123456789abcdefghijklmnopqrstuv'
export const AUTH_HEADERS = { authorization: `Bearer ${BENCH_TOKEN}` }

export function ensureBenchToken(databaseUrl, secretKey) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...TSX_NODE_ARGS, 'scripts/ensure-admin-token.ts'], {
      stdio: ['ignore', 'ignore', 'inherit'],
      env: { ...process.env, DATABASE_URL: databaseUrl, TOOLROOM_SECRET_KEY: secretKey, TOOLROOM_ADMIN_TOKEN: BENCH_TOKEN },
    })
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`ensure-admin-token exited ${code}`))))
  })
}

/** Creates an approver through the API and signs a Playwright browser context in as them. */
export async function signInContext(context, base, role = 'approver') {
  const email = `bench-${role}-${Date.now()}@toolroom.local`
  const password = 'bench-password-0123456789'
  const created = await fetch(`${base}/api/v1/users`, {
    method: 'POST',
    headers: { ...AUTH_HEADERS, 'content-type': 'application/json' },
    body: JSON.stringify({ email, name: `Bench ${role}`, role, password }),
  })
  if (!created.ok) throw new Error(`creating the bench user: ${created.status} ${await created.text()}`)
  const res = await context.request.post(`${base}/api/v1/session`, { headers: { origin: base }, data: { email, password } })
  if (!res.ok()) throw new Error(`signing in: ${res.status()} ${await res.text()}`)
}

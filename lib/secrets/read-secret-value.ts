import { prisma } from '@/lib/db'
import { openSecretValues } from './encryption'

/** One value of a Secret, for server-side use only (headers to MCP servers, REST tool auth). */
export async function readSecretValue(ref: { name: string; key?: string }, namespace: string): Promise<string> {
  const [ns, name] = ref.name.includes('/') ? ref.name.split('/') : [namespace, ref.name]
  const secret = await prisma.secret.findUnique({ where: { namespace_name: { namespace: ns, name } } })
  if (!secret) throw new Error(`Secret "${ns}/${name}" does not exist`)
  const values = openSecretValues(secret.ciphertext, secret.keyId)
  const key = ref.key ?? Object.keys(values)[0]
  const value = values[key]
  if (value === undefined) throw new Error(`Secret "${ns}/${name}" has no key "${key}"`)
  return value
}

import 'server-only'
import { prisma } from '@/lib/db'
import { openSecretValues } from './encryption'
import { resolveSecretRef } from './secret-ref'

/** One value of a Secret, for server-side use only (headers to MCP servers, REST tool auth), seen from the referrer's namespace. */
export async function readSecretValue(ref: { name: string; key?: string }, namespace: string): Promise<string> {
  const { namespace: ns, name } = resolveSecretRef(ref.name, namespace)
  const secret = await prisma.secret.findUnique({ where: { namespace_name: { namespace: ns, name } } })
  if (!secret) throw new Error(`Secret "${ns}/${name}" does not exist`)
  const values = openSecretValues(secret.ciphertext, secret.keyId)
  const key = ref.key ?? Object.keys(values)[0]
  const value = values[key]
  if (value === undefined) throw new Error(`Secret "${ns}/${name}" has no key "${key}"`)
  return value
}

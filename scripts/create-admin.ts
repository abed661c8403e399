// The first admin of a production installation:
//   npm run users:create-admin -- --email you@example.com [--name "Your Name"]
// With DATABASE_URL and TOOLROOM_SECRET_KEY set. Reads the password from stdin when one is piped in
// (`printf %s "$PASSWORD" | npm run …`), otherwise generates one and prints it once.
import { parseArgs } from 'node:util'
import '@/lib/check-config'
import { prisma } from '@/lib/db'
import { createUser } from '@/lib/people/create-user'

async function readStdin(): Promise<string | undefined> {
  if (process.stdin.isTTY) return undefined
  const chunks: Buffer[] = []
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer)
  const text = Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '')
  return text === '' ? undefined : text
}

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { email: { type: 'string' }, name: { type: 'string' } } })
  if (!values.email) {
    console.error('usage: npm run users:create-admin -- --email you@example.com [--name "Your Name"]  (password on stdin, or one is generated)')
    return 2
  }
  try {
    const password = await readStdin()
    const { user, password: generated } = await createUser(
      { email: values.email, name: values.name, role: 'admin', password },
      { kind: 'system', name: 'users:create-admin' },
    )
    console.log(`admin created: ${user.email}`)
    if (generated) console.log(`password (shown once, change or store it now): ${generated}`)
    return 0
  } catch (e) {
    console.error(`could not create the admin: ${(e as Error).message}`)
    return 1
  } finally {
    await prisma.$disconnect().catch(() => {})
  }
}

main().then((code) => process.exit(code))

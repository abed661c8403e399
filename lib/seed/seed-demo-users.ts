// One demo person per role for the embedded/demo database, with fixed credentials that the README
// lists. Only into a database without any people, so real accounts are never touched.
import 'server-only'
import type { Role } from '@/lib/auth/access-rules'
import { createUser } from '@/lib/people/create-user'
import { peoplePresent } from './demo-present'

const DEMO_USERS: { email: string; password: string; role: Role; name: string }[] = [
  { email: 'admin@toolroom.local', password: 'toolroom-demo-admin', role: 'admin', name: 'Ada Admin' },
  { email: 'approver@toolroom.local', password: 'toolroom-demo-approver', role: 'approver', name: 'Arno Approver' },
  { email: 'operator@toolroom.local', password: 'toolroom-demo-operator', role: 'operator', name: 'Olga Operator' },
  { email: 'viewer@toolroom.local', password: 'toolroom-demo-viewer', role: 'viewer', name: 'Vic Viewer' },
]

export async function seedDemoUsers(): Promise<typeof DEMO_USERS | null> {
  if (await peoplePresent()) return null
  for (const user of DEMO_USERS) await createUser(user, { kind: 'system', name: 'demo seed' })
  return DEMO_USERS
}

// The access token of a person's own connection (docs/design/access.md#connected-accounts): a
// LanguageTool with `auth.oauth2.connect: perPerson` is called with the account of the person the
// call is made for, connected from their Connections page. The row is read on every call, as the
// operator's connection is, and the person's portal account with it: a disabled account's connections
// stop at the next call, and a disconnect holds in every process at once. Refreshing is the
// operator's connection's, single-flight per (LanguageTool, person).
import 'server-only'
import { portalUserOf } from '@/lib/identity/portal-person'
import type { Person } from '@/lib/identity/person'
import { type ConnectedServer, getStoredConnectionToken } from './get-connection-token'
import { PersonConnectionNeeded } from './upstream-connection-rules'

export async function getPersonConnectionToken(server: ConnectedServer, person: Person | null): Promise<string> {
  if (!person) throw new PersonConnectionNeeded('no_person', null)
  const user = await portalUserOf(person)
  if (!user) throw new PersonConnectionNeeded('no_account', person)
  if (user.disabledAt) throw new PersonConnectionNeeded('disabled', person)
  return getStoredConnectionToken(server, {
    key: `${server.namespace}/${server.name}#${user.id}`,
    find: (db) => db.personConnection.findUnique({ where: { namespace_name_userId: { namespace: server.namespace, name: server.name, userId: user.id } } }),
    update: (db, id, data) => db.personConnection.update({ where: { id }, data }),
  }).catch((e) => {
    throw PersonConnectionNeeded.from(e, person)
  })
}

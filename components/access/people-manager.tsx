'use client'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Card } from '@/components/ui/card'
import { ConfirmDialog } from '@/components/ui/confirm-dialog'
import { CONTROL, Field, Form, TextInput } from '@/components/ui/form'
import { QueryView } from '@/components/ui/states'
import { Table, TBody, Td, Th, THead, Tr } from '@/components/ui/table'
import { ROLES, type Role } from '@/lib/auth/access-rules'
import { changeUser, createUser, listUsers, removeUser, resetUserPassword, type UserView } from '@/lib/client/access-api'
import { queryKeys } from '@/lib/client/query-keys'
import { dateTime } from '@/lib/client/format'
import { useCaller } from './caller-context'
import { ErrorLine } from './error-line'
import { ShownOnce } from './shown-once'

const ROLE_HELP: Record<Role, string> = {
  viewer: 'reads everything',
  operator: 'changes resources',
  approver: 'decides approvals',
  admin: 'manages people, tokens, policies and secrets',
}

export function PeopleManager() {
  const query = useQuery({ queryKey: queryKeys.users(), queryFn: listUsers })
  return (
    <div className="space-y-4">
      <AddPerson />
      <Card title="People" description="Everyone who can sign in. Changing a role or disabling someone ends their open sessions." bodyClassName="p-0">
        <QueryView query={query} isEmpty={(d) => d.items.length === 0}>
          {(data) => <PeopleTable people={data.items} />}
        </QueryView>
      </Card>
    </div>
  )
}

function AddPerson() {
  const client = useQueryClient()
  const [generated, setGenerated] = useState<{ email: string; password: string } | null>(null)
  const create = useMutation({
    mutationFn: createUser,
    onSuccess: (answer) => {
      void client.invalidateQueries({ queryKey: queryKeys.users() })
      if (answer.password) setGenerated({ email: answer.user.email, password: answer.password })
    },
  })
  return (
    <Card
      title="Add a person"
      description={`Leave the password empty to have one generated; it is shown once. Roles: ${ROLES.map((r) => `${r} ${ROLE_HELP[r]}`).join('; ')}.`}
    >
      <Form
        className="flex flex-wrap items-end gap-3"
        onSubmit={(form) => {
          const data = new FormData(form)
          const password = String(data.get('password') ?? '')
          create.mutate(
            {
              email: String(data.get('email')),
              name: String(data.get('name') ?? '') || undefined,
              role: String(data.get('role')) as Role,
              password: password || undefined,
            },
            { onSuccess: () => form.reset() },
          )
        }}
      >
        <Field label="Email">
          <TextInput name="email" type="email" required maxLength={254} className="w-64" />
        </Field>
        <Field
          label={
            <span>
              Name <span className="font-normal text-slate-400">(optional)</span>
            </span>
          }
        >
          <TextInput name="name" maxLength={200} className="w-44" />
        </Field>
        <Field label="Role">
          <select name="role" defaultValue="viewer" className={CONTROL}>
            {ROLES.map((r) => (
              <option key={r} value={r} title={ROLE_HELP[r]}>
                {r}
              </option>
            ))}
          </select>
        </Field>
        <Field
          label={
            <span>
              Password <span className="font-normal text-slate-400">(optional, 12+ characters)</span>
            </span>
          }
        >
          <TextInput name="password" type="password" minLength={12} maxLength={256} autoComplete="new-password" className="w-48" />
        </Field>
        <Button type="submit" variant="primary" disabled={create.isPending}>
          Add person
        </Button>
      </Form>
      {create.error && <ErrorLine error={create.error} />}
      {generated && (
        <div className="mt-3">
          <ShownOnce label={`Password for ${generated.email}`} value={generated.password} onDone={() => setGenerated(null)} />
        </div>
      )}
    </Card>
  )
}

function PeopleTable({ people }: { people: UserView[] }) {
  const client = useQueryClient()
  const me = useCaller()
  const [error, setError] = useState<unknown>(null)
  const done = { onSuccess: () => void client.invalidateQueries({ queryKey: queryKeys.users() }), onError: setError, onMutate: () => setError(null) }
  // The id goes in the path only: PATCH /api/v1/users/{id} refuses fields it does not know.
  const change = useMutation({ mutationFn: ({ id, ...body }: { id: string; role?: Role; disabled?: boolean }) => changeUser(id, body), ...done })
  const remove = useMutation({ mutationFn: removeUser, ...done })
  const [reset, setReset] = useState<{ email: string; password: string } | null>(null)
  // A role change waiting for its yes: it widens or narrows what someone may do and ends their sessions.
  const [roleChange, setRoleChange] = useState<{ person: UserView; role: Role } | null>(null)
  const resetPassword = useMutation({
    mutationFn: (p: UserView) => resetUserPassword(p.id),
    onMutate: () => setError(null),
    onError: setError,
    onSuccess: (answer, p) => answer.password && setReset({ email: p.email, password: answer.password }),
  })
  return (
    <>
      {error ? (
        <div className="px-4 pt-3">
          <ErrorLine error={error} />
        </div>
      ) : null}
      {reset && (
        <div className="px-4 pt-3">
          <ShownOnce label={`New password for ${reset.email} (their sessions have ended)`} value={reset.password} onDone={() => setReset(null)} />
        </div>
      )}
      <Table>
        <THead>
          <tr>
            <Th>Person</Th>
            <Th>Role</Th>
            <Th>Signs in with</Th>
            <Th>State</Th>
            <Th>Added</Th>
            <Th className="text-right">Actions</Th>
          </tr>
        </THead>
        <TBody>
          {people.map((p) => {
            const self = p.id === me?.id
            return (
              <Tr key={p.id} data-testid="person-row" data-email={p.email}>
                <Td>
                  <span className="font-medium text-slate-900">{p.name}</span>
                  <span className="block text-xs text-slate-500">{p.email}</span>
                </Td>
                <Td>
                  <select
                    aria-label={`Role of ${p.email}`}
                    value={p.role}
                    disabled={change.isPending}
                    onChange={(e) => setRoleChange({ person: p, role: e.target.value as Role })}
                    className={CONTROL}
                  >
                    {ROLES.map((r) => (
                      <option key={r} value={r}>
                        {r}
                      </option>
                    ))}
                  </select>
                </Td>
                <Td className="text-xs text-slate-600">{p.signIn.map((s) => (s === 'credential' ? 'password' : s)).join(', ') || '–'}</Td>
                <Td>{p.disabled ? <Badge tone="red">disabled</Badge> : <Badge tone="green">active</Badge>}</Td>
                <Td className="text-xs text-slate-600">{dateTime(p.createdAt)}</Td>
                <Td className="text-right">
                  {self ? (
                    <span className="text-xs text-slate-400">you</span>
                  ) : (
                    <span className="inline-flex flex-wrap justify-end gap-1 md:flex-nowrap">
                      {p.signIn.includes('credential') && (
                        <Button
                          variant="ghost"
                          disabled={resetPassword.isPending}
                          onClick={() => {
                            if (window.confirm(`Give ${p.email} a new generated password? Their sessions end; you pass the password on.`))
                              resetPassword.mutate(p)
                          }}
                        >
                          Reset password
                        </Button>
                      )}
                      <Button variant="ghost" disabled={change.isPending} onClick={() => change.mutate({ id: p.id, disabled: !p.disabled })}>
                        {p.disabled ? 'Enable' : 'Disable'}
                      </Button>
                      <Button
                        variant="ghost"
                        className="text-red-800 hover:bg-red-50"
                        disabled={remove.isPending}
                        onClick={() => {
                          if (window.confirm(`Remove ${p.email}? Their sessions and API tokens stop working.`)) remove.mutate(p.id)
                        }}
                      >
                        Remove
                      </Button>
                    </span>
                  )}
                </Td>
              </Tr>
            )
          })}
        </TBody>
      </Table>
      {roleChange && (
        <ConfirmDialog
          testId="role-change-confirm"
          title={`Make ${roleChange.person.email} ${/^[aeiou]/.test(roleChange.role) ? 'an' : 'a'} ${roleChange.role}?`}
          confirmLabel={`Yes, make ${roleChange.role}`}
          tone={ROLES.indexOf(roleChange.role) > ROLES.indexOf(roleChange.person.role) ? 'danger' : 'primary'}
          busy={change.isPending}
          onCancel={() => setRoleChange(null)}
          onConfirm={() => {
            change.mutate({ id: roleChange.person.id, role: roleChange.role })
            setRoleChange(null)
          }}
        >
          <p>
            From <strong>{roleChange.person.role}</strong> ({ROLE_HELP[roleChange.person.role]}) to <strong>{roleChange.role}</strong> (
            {ROLE_HELP[roleChange.role]}). Their open sessions end now; their API tokens follow the new role.
          </p>
        </ConfirmDialog>
      )}
    </>
  )
}

'use client'
// The signed-in person, handed from the portal layout (server) to client components, so they hide
// what the server would refuse anyway.
import { createContext, useContext } from 'react'
import { type Access, type Actor, isAllowed, type Role } from '@/lib/auth/access-rules'
import { mayChangeKind } from '@/lib/auth/admin-only-kinds'

export interface Caller {
  id: string
  name: string
  role: Role
}

const CallerContext = createContext<Caller | null>(null)

export function CallerProvider({ caller, children }: { caller: Caller; children: React.ReactNode }) {
  return <CallerContext.Provider value={caller}>{children}</CallerContext.Provider>
}

export function useCaller(): Caller | null {
  return useContext(CallerContext)
}

const actorOf = (caller: Caller): Actor => ({ kind: 'user', id: caller.id, name: caller.name, roles: [caller.role], via: 'session' })

/** Whether the signed-in person may do `access`; false outside the portal layout. */
export function useCan(access: Access): boolean {
  const caller = useCaller()
  return caller !== null && isAllowed(actorOf(caller), access)
}

/** Whether the signed-in person may create, change or delete resources of `kind` (admin-only kinds). */
export function useMayChangeKind(kind: string): boolean {
  const caller = useCaller()
  return caller !== null && isAllowed(actorOf(caller), 'write') && mayChangeKind(actorOf(caller), kind)
}

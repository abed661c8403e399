'use client'
// The signed-in person, handed from the portal layout (server) to client components, so they hide
// what the server would refuse anyway.
import { createContext, useContext } from 'react'
import { type Access, isAllowed, type Role } from '@/lib/auth/access-rules'

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

/** Whether the signed-in person may do `access`; false outside the portal layout. */
export function useCan(access: Access): boolean {
  const caller = useCaller()
  return caller !== null && isAllowed({ kind: 'user', id: caller.id, name: caller.name, roles: [caller.role], via: 'session' }, access)
}

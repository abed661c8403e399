// Passwords Toolroom sets on someone's behalf (a new person, an admin's reset): chosen or generated,
// at least MIN_PASSWORD_LENGTH long, and hashed by better-auth's own hasher so its sign-in reads them.
import 'server-only'
import { randomBytes } from 'node:crypto'
import { getAuth } from '@/lib/sign-in/better-auth'
import { AppError } from '@/lib/errors/app-error'

export const MIN_PASSWORD_LENGTH = 12

/** The password to set: the chosen one, checked, or a generated one (then `generated`, to show once). */
export function choosePassword(chosen: string | undefined): { password: string; generated?: string } {
  if (chosen === undefined) {
    const generated = randomBytes(18).toString('base64url')
    return { password: generated, generated }
  }
  if (chosen.length < MIN_PASSWORD_LENGTH)
    throw new AppError('VALIDATION_FAILED', `the password must be at least ${MIN_PASSWORD_LENGTH} characters`, [
      { field: 'password', rule: 'min-length', message: `must be at least ${MIN_PASSWORD_LENGTH} characters` },
    ])
  return { password: chosen }
}

export async function hashPassword(password: string): Promise<string> {
  return (await getAuth().$context).password.hash(password)
}

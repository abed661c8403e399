// Session length and sign-in attempt limits, from the environment (README, "Access").
import 'server-only'

export interface AuthSettings {
  sessionSeconds: number
  signInAttempts: number
  signInWindowSeconds: number
}

export function authSettings(env: Record<string, string | undefined> = process.env): AuthSettings {
  return {
    sessionSeconds: Math.round(positive(env.TOOLROOM_SESSION_HOURS, 12, 'TOOLROOM_SESSION_HOURS') * 3600),
    signInAttempts: Math.round(positive(env.TOOLROOM_SIGNIN_ATTEMPTS, 10, 'TOOLROOM_SIGNIN_ATTEMPTS')),
    signInWindowSeconds: Math.round(positive(env.TOOLROOM_SIGNIN_WINDOW_SECONDS, 300, 'TOOLROOM_SIGNIN_WINDOW_SECONDS')),
  }
}

function positive(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value === '') return fallback
  const n = Number(value)
  if (!Number.isFinite(n) || n <= 0) throw new Error(`${name} must be a positive number (got "${value}")`)
  return n
}

// Session length and sign-in attempt limits (README, "Access"; bounds in lib/config.ts).
import 'server-only'
import { type Config, config } from '@/lib/config'

export interface AuthSettings {
  sessionSeconds: number
  signInAttempts: number
  signInWindowSeconds: number
}

type AuthConfig = Pick<Config, 'TOOLROOM_SESSION_HOURS' | 'TOOLROOM_SIGNIN_ATTEMPTS' | 'TOOLROOM_SIGNIN_WINDOW_SECONDS'>

export function authSettings(from: AuthConfig = config()): AuthSettings {
  return {
    sessionSeconds: Math.round(from.TOOLROOM_SESSION_HOURS * 3600),
    signInAttempts: from.TOOLROOM_SIGNIN_ATTEMPTS,
    signInWindowSeconds: from.TOOLROOM_SIGNIN_WINDOW_SECONDS,
  }
}

// RFC 8693 token exchange at Toolroom's own token endpoint, as an agent acting for a person asks for
// its tro_ token: the person's subject token, the agent's tra_ credential as the actor, Toolroom's
// /mcp as the resource (docs/design/access.md#on-whose-behalf).
import { expect } from 'vitest'

const EXCHANGE = 'urn:ietf:params:oauth:grant-type:token-exchange'
export const ACCESS_TOKEN_TYPE = 'urn:ietf:params:oauth:token-type:access_token'
export const JWT_TOKEN_TYPE = 'urn:ietf:params:oauth:token-type:jwt'

/** The token endpoint's answer, whatever it is. */
export async function exchangeAtToolroom(
  appUrl: string,
  { subjectToken, actorToken, subjectTokenType = ACCESS_TOKEN_TYPE }: { subjectToken: string; actorToken: string; subjectTokenType?: string },
): Promise<{ status: number; json: Record<string, string> }> {
  const body = new URLSearchParams({
    grant_type: EXCHANGE,
    subject_token: subjectToken,
    subject_token_type: subjectTokenType,
    actor_token: actorToken,
    actor_token_type: ACCESS_TOKEN_TYPE,
    resource: `${appUrl}/mcp`,
  })
  const res = await fetch(`${appUrl}/api/auth/oauth2/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body })
  return { status: res.status, json: (await res.json()) as Record<string, string> }
}

/** The tro_ token of a successful exchange (the test fails, showing the answer, otherwise). */
export async function troToken(appUrl: string, exchange: Parameters<typeof exchangeAtToolroom>[1]): Promise<string> {
  const { status, json } = await exchangeAtToolroom(appUrl, exchange)
  expect(status, JSON.stringify(json)).toBe(200)
  return json.access_token
}

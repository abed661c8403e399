// oidc-provider ships no type declarations: the part the tests use.
declare module 'oidc-provider' {
  import type http from 'node:http'
  interface IssuedToken {
    clientId?: string
    /** The account (subject) a user's token was issued for; absent for client credentials. */
    accountId?: string
    scopes?: Set<string>
    aud?: string | string[]
    exp?: number
    isExpired: boolean
    grantId?: string
  }
  export const errors: Record<'InvalidGrant' | 'InvalidRequest' | 'InvalidTarget', new (description: string) => Error>
  export default class Provider {
    constructor(issuer: string, configuration: Record<string, unknown>)
    callback(): (req: http.IncomingMessage, res: http.ServerResponse) => void
    ClientCredentials: { find(token: string): Promise<IssuedToken | undefined> }
    Client: { find(clientId: string): Promise<unknown> }
    AccessToken: {
      new (fields: Record<string, unknown>): { save(): Promise<string> }
      find(token: string): Promise<IssuedToken | undefined>
    }
    Grant: { find(id: string): Promise<{ destroy(): Promise<void> } | undefined> }
    registerGrantType(
      name: string,
      handler: (ctx: { oidc: { params: Record<string, unknown>; client: unknown }; body?: unknown }) => Promise<void>,
      params?: string[],
    ): void
    on(event: 'refresh_token.saved', listener: (token: IssuedToken) => void): this
    on(event: 'grant.success' | 'grant.error', listener: (ctx: { oidc?: { params?: { grant_type?: unknown } } }) => void): this
  }
}

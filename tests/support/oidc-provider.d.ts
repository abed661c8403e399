// oidc-provider ships no type declarations: the part the tests use.
declare module 'oidc-provider' {
  import type http from 'node:http'
  interface IssuedToken {
    clientId?: string
    scopes?: Set<string>
    aud?: string | string[]
    exp?: number
    isExpired: boolean
  }
  export default class Provider {
    constructor(issuer: string, configuration: Record<string, unknown>)
    callback(): (req: http.IncomingMessage, res: http.ServerResponse) => void
    ClientCredentials: { find(token: string): Promise<IssuedToken | undefined> }
    Client: { find(clientId: string): Promise<unknown> }
    AccessToken: new (fields: Record<string, unknown>) => { save(): Promise<string> }
  }
}

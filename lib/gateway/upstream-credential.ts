// The access token an `oauth2` upstream credential gets (lib/upstream-auth), as the executors inject
// it: a refusal by the authorization server is the call's failure, named for what it is.
import 'server-only'
import type { OAuth2Client } from '@/lib/manifests/specs/upstream-auth'
import { refreshOAuthToolStatus } from '@/lib/tools/refresh-tool-status'
import { getUpstreamToken } from '@/lib/upstream-auth/get-upstream-token'
import { UpstreamTokenError } from '@/lib/upstream-auth/upstream-token-rules'
import { ToolFailure } from './tool-errors'

/** The bearer token for the upstream; an UpstreamTokenError becomes a ToolFailure `upstream_auth` carrying the server's error. */
export async function upstreamBearerToken(oauth2: OAuth2Client, namespace: string): Promise<string> {
  try {
    return await getUpstreamToken(oauth2, namespace, refreshOAuthToolStatus)
  } catch (e) {
    if (!(e instanceof UpstreamTokenError)) throw e
    throw new ToolFailure(`no access token for the upstream: ${e.message}`, 'upstream_auth', {
      authorizationServer: { server: e.server, error: e.error, ...(e.description ? { description: e.description } : {}) },
    })
  }
}

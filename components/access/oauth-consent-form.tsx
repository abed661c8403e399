'use client'
import { useState } from 'react'
import { Button } from '@/components/ui/button'
import type { ConsentRequest } from '@/lib/sign-in/oauth-consent'
import { STANDALONE_FIELD, STANDALONE_LABEL, StandalonePage } from './standalone-page'

/** The consent step of an MCP client's authorization: which client, as which agent, for what; allow or deny. */
export function OAuthConsentForm({ request, person, mayConsent }: { request: ConsentRequest | null; person: string; mayConsent: boolean }) {
  const [agent, setAgent] = useState(request?.agent ? '' : (request?.choices[0]?.id ?? ''))
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)

  const decide = async (accept: boolean) => {
    setBusy(true)
    setError(null)
    try {
      const res = await fetch('/api/v1/oauth/consent', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ oauthQuery: window.location.search.slice(1), accept, ...(accept && !request?.agent && agent ? { agent } : {}) }),
      })
      const answer = (await res.json().catch(() => ({}))) as { redirectTo?: string; detail?: string }
      if (res.ok && answer.redirectTo) return window.location.assign(answer.redirectTo)
      setError(answer.detail ?? `the decision was not taken (HTTP ${res.status})`)
    } catch (e) {
      setError(`could not reach the server: ${(e as Error).message}`)
    }
    setBusy(false)
  }

  const redirectHost = (() => {
    try {
      return request?.client.redirectUri ? new URL(request.client.redirectUri).host : null
    } catch {
      return null
    }
  })()
  const noAgent = request && !request.agent && request.choices.length === 0

  return (
    <StandalonePage width="wide">
      <h1 className="text-base font-semibold text-slate-900">Connect an MCP client</h1>
      {!request ? (
        <p role="alert" className="mt-3 rounded-md bg-red-50 px-3 py-2 text-sm text-red-800">
          This request names no OAuth client Toolroom knows, or its client was revoked. Start the connection again from the client.
        </p>
      ) : (
        <>
          <p className="mt-2 text-sm text-slate-700">
            <strong className="break-all">{request.client.name}</strong>{' '}
            <span className="text-slate-500">({request.client.registration === 'admin' ? 'registered by an admin' : 'registered itself'})</span> asks to call
            tools through Toolroom&apos;s gateway
            {request.agent ? (
              <>
                {' '}
                as agent{' '}
                <code className="break-all rounded bg-slate-100 px-1 font-mono text-xs">
                  {request.agent.namespace}/{request.agent.name}
                </code>
              </>
            ) : null}
            : every tool that agent may call, under its approvals, rate limits and call log.
          </p>
          <dl className="mt-3 space-y-1 text-sm">
            <div className="flex gap-2">
              <dt className="w-28 shrink-0 text-slate-500">Scopes</dt>
              <dd className="break-all font-mono text-xs text-slate-800">{request.scopes.join(' ') || 'mcp'}</dd>
            </div>
            {request.resources.length > 0 && (
              <div className="flex gap-2">
                <dt className="w-28 shrink-0 text-slate-500">For</dt>
                <dd className="break-all font-mono text-xs text-slate-800">{request.resources.join(', ')}</dd>
              </div>
            )}
            {redirectHost && (
              <div className="flex gap-2">
                <dt className="w-28 shrink-0 text-slate-500">Returns to</dt>
                <dd className="break-all font-mono text-xs text-slate-800">{redirectHost}</dd>
              </div>
            )}
            <div className="flex gap-2">
              <dt className="w-28 shrink-0 text-slate-500">Decided by</dt>
              <dd className="break-all text-slate-800">{person}</dd>
            </div>
          </dl>
          {!request.agent && request.choices.length > 0 && (
            <label className={`mt-4 ${STANDALONE_LABEL}`}>
              Act as agent
              <select className={STANDALONE_FIELD} value={agent} onChange={(e) => setAgent(e.target.value)} disabled={!mayConsent}>
                {request.choices.map((a) => (
                  <option key={a.id} value={a.id}>
                    {a.namespace}/{a.name}
                  </option>
                ))}
              </select>
              <span className="mt-1 block text-xs font-normal text-slate-500">This client will act as this agent from now on; an admin can revoke it.</span>
            </label>
          )}
          {noAgent && (
            <p className="mt-3 rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900">
              No agent accepts dynamically registered clients. An admin registers this client for an agent, or lets an agent accept them (Access tokens page).
            </p>
          )}
          {!mayConsent && (
            <p className="mt-3 rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900">
              Connecting clients to agents takes the operator or admin role; you can only deny.
            </p>
          )}
          {error && (
            <p role="alert" className="mt-3 rounded-md bg-red-50 px-3 py-2 text-sm text-red-800">
              {error}
            </p>
          )}
          <div className="mt-5 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <Button onClick={() => void decide(false)} disabled={busy} className="h-9">
              Deny
            </Button>
            <Button variant="primary" onClick={() => void decide(true)} disabled={busy || !mayConsent || Boolean(noAgent)} className="h-9">
              Allow
            </Button>
          </div>
        </>
      )}
    </StandalonePage>
  )
}

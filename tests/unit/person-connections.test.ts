// Connected accounts, the pure parts (docs/design/access.md#connected-accounts): what a LanguageTool's
// manifest may say about whose account calls use, which clients take URL-mode elicitation, the
// address of the Connections page, and how a missing person's connection is told.
import { describe, expect, it } from 'vitest'
import { takesUrlElicitation, urlElicitationError } from '@/lib/gateway/url-elicitation'
import { isPerPerson } from '@/lib/manifests/specs/upstream-auth'
import { validateDocument } from '@/lib/manifests/validate-document'
import {
  connectionsPageUrl,
  describePersonConnectionNeed,
  PersonConnectionNeeded,
  UpstreamConnectionNeeded,
} from '@/lib/upstream-auth/upstream-connection-rules'

const languageTool = (oauth2: Record<string, unknown>) => ({
  apiVersion: 'toolroom.dev/v1alpha1',
  kind: 'LanguageTool',
  metadata: { name: 'gh', namespace: 'ops' },
  spec: { endpoint: 'https://gh.example.com/mcp', auth: { type: 'oauth2', oauth2 } },
})
const problems = (raw: unknown) => validateDocument(raw, 0).errors.map((e) => `${e.field} ${e.rule}`)

describe('auth.oauth2.connect', () => {
  it('is service (the operator’s connection, as without it) or perPerson, on authorization_code only', () => {
    expect(problems(languageTool({ grantType: 'authorization_code', connect: 'perPerson' }))).toEqual([])
    expect(problems(languageTool({ grantType: 'authorization_code', connect: 'service' }))).toEqual([])
    expect(problems(languageTool({ grantType: 'authorization_code', connect: 'everyone' }))).toEqual(['spec.auth.oauth2.connect enum'])
    expect(
      problems(
        languageTool({
          grantType: 'client_credentials',
          issuer: 'https://idp.example.com',
          clientId: 'c',
          clientSecretRef: { name: 's' },
          connect: 'perPerson',
        }),
      ),
    ).toEqual(['spec.auth.oauth2.connect unknown-field'])
  })

  it('makes calls use each person’s connection only when perPerson', () => {
    expect(isPerPerson({ grantType: 'authorization_code', connect: 'perPerson' })).toBe(true)
    expect(isPerPerson({ grantType: 'authorization_code', connect: 'service' })).toBe(false)
    expect(isPerPerson({ grantType: 'authorization_code' })).toBe(false)
  })
})

describe('URL-mode elicitation', () => {
  it('is taken by clients that declare elicitation.url, not by those with form elicitation alone', () => {
    expect(takesUrlElicitation({ elicitation: { url: {} } })).toBe(true)
    expect(takesUrlElicitation({ elicitation: { form: {}, url: {} } })).toBe(true)
    expect(takesUrlElicitation({ elicitation: {} })).toBe(false)
    expect(takesUrlElicitation({ elicitation: { url: true } })).toBe(false)
    expect(takesUrlElicitation(undefined)).toBe(false)
  })

  it('is -32042 naming an absolute URL, and nothing for an address a client could not open', () => {
    const error = urlElicitationError('https://toolroom.example.com/connections?languageTool=ops%2Fgh', 'connect it', { callId: 'c1' })
    expect(error).toMatchObject({
      code: -32042,
      data: { callId: 'c1', elicitations: [{ mode: 'url', url: 'https://toolroom.example.com/connections?languageTool=ops%2Fgh', message: 'connect it' }] },
    })
    expect(urlElicitationError('/connections?languageTool=ops%2Fgh', 'connect it', {})).toBeNull()
  })
})

describe('a person’s missing connection', () => {
  it('names the Connections page at the LanguageTool, absolute when the origin is known', () => {
    expect(connectionsPageUrl('https://toolroom.example.com', { namespace: 'ops', name: 'gh' })).toBe(
      'https://toolroom.example.com/connections?languageTool=ops%2Fgh',
    )
    expect(connectionsPageUrl(null, { namespace: 'ops', name: 'gh' })).toBe('/connections?languageTool=ops%2Fgh')
  })

  it('is told for the person, and only what the person can mend is connectable', () => {
    expect(describePersonConnectionNeed('not_connected', 'Jane Doe', null, null)).toContain('Jane Doe has not connected theirs yet')
    expect(describePersonConnectionNeed('reconnect', 'Jane Doe', 'invalid_grant', 'revoked')).toContain(
      '(the authorization server answered invalid_grant: revoked)',
    )
    const jane = { displayName: 'Jane Doe' }
    const fromOperatorWording = PersonConnectionNeeded.from(new UpstreamConnectionNeeded('reconnect', 'invalid_grant'), jane) as PersonConnectionNeeded
    expect(fromOperatorWording).toBeInstanceOf(PersonConnectionNeeded)
    expect(fromOperatorWording.message).not.toContain('an operator')
    expect(fromOperatorWording.connectable).toBe(true)
    expect(new PersonConnectionNeeded('disabled', jane).connectable).toBe(false)
    expect(new PersonConnectionNeeded('no_person', null).connectable).toBe(false)
  })
})

// better-auth reads the client address (its attempt limit's key, a session's ipAddress) from this one
// header, which only we set: from lib/request-origin/client-address.ts, over any copy a client sent.
import { clientAddress } from '@/lib/request-origin/client-address'

export const CLIENT_ADDRESS_HEADER = 'x-toolroom-client-address'

export function withClientAddress(headers: Headers, request: Request): Headers {
  const address = clientAddress(request)
  if (address) headers.set(CLIENT_ADDRESS_HEADER, address)
  else headers.delete(CLIENT_ADDRESS_HEADER)
  return headers
}

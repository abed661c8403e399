'use client'
import { MutationCache, QueryCache, QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { useState } from 'react'
import { ApiError } from '@/lib/client/api'

export function Providers({ children }: { children: React.ReactNode }) {
  // One client per browser session; created in state so a re-render never throws the cache away.
  const [client] = useState(
    () =>
      new QueryClient({
        // A session that expired while the page was open: back to the sign-in page.
        queryCache: new QueryCache({ onError: toSignInOn401 }),
        mutationCache: new MutationCache({ onError: toSignInOn401 }),
        defaultOptions: {
          queries: {
            staleTime: 15_000,
            refetchOnWindowFocus: false,
            // A 4xx will not get better by asking again; network blips and 5xx might.
            retry: (failures, error) => failures < 2 && !(error instanceof ApiError && error.status >= 400 && error.status < 500),
          },
        },
      }),
  )
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>
}

function toSignInOn401(error: unknown) {
  // eslint-disable-next-line @next/next/no-location-assign-relative-destination -- a full load drops the expired session's cached queries and pages; there is no router outside a component
  if (error instanceof ApiError && error.status === 401 && window.location.pathname !== '/sign-in') window.location.assign('/sign-in')
}

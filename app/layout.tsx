import type { Metadata } from 'next'
import { connection } from 'next/server'
import { Providers } from '@/components/providers'
import './globals.css'

export const metadata: Metadata = {
  title: { default: 'Toolroom', template: '%s · Toolroom' },
  description: 'The system of record for the tools AI agents may call.',
}

export default async function RootLayout({ children }: { children: React.ReactNode }) {
  // Every page is rendered per request: the CSP nonce (proxy.ts) exists only then, and pages need the session.
  await connection()
  return (
    <html lang="en">
      <body className="bg-slate-50 font-sans text-slate-900 antialiased">
        <Providers>{children}</Providers>
      </body>
    </html>
  )
}

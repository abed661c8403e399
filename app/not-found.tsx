import type { Metadata } from 'next'
import { NotFoundPage } from '@/components/layout/not-found-page'
import { pageCaller } from '@/lib/sign-in/page-caller'

export const metadata: Metadata = { title: 'Page not found' }

export default async function NotFound() {
  return <NotFoundPage actor={await pageCaller()} />
}

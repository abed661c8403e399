'use client'
import { useId } from 'react'

/** A titled part of a page that holds several cards (a page's parts that are one card are a `Card`). */
export function PageSection({ title, children }: { title: React.ReactNode; children: React.ReactNode }) {
  const heading = useId()
  return (
    <section aria-labelledby={heading} className="space-y-4">
      <h2 id={heading} className="text-base font-semibold text-slate-900">
        {title}
      </h2>
      {children}
    </section>
  )
}

'use client'
import { useEffect } from 'react'

/** Detail pages learn their resource's name only after the fetch (the URL may hold a uuid). */
export function useDocumentTitle(title: string | undefined) {
  useEffect(() => {
    if (title) document.title = `${title} · Toolroom`
  }, [title])
}

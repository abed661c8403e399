// Moves focus to an answer that just appeared, so a screen reader reads it next, and shows its start:
// a plain focus() scrolls a long answer so its end is in view on a phone, past what it says first.
export function focusAnswer(element: HTMLElement | null): void {
  if (!element) return
  element.focus({ preventScroll: true })
  element.scrollIntoView({ block: 'start', behavior: 'instant' })
}

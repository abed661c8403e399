// `/apply?draft=<url-encoded YAML>`: a manifest another page (or a person) prefills the Apply editor
// with. It is only shown, never applied, and bounded: a link is no way to load a large manifest.
export const MAX_DRAFT_CHARS = 64 * 1024

/** The draft to prefill, or undefined when there is none (or it is too long to be a link's). */
export function applyDraftOf(param: string | undefined): string | undefined {
  if (param === undefined || param.length > MAX_DRAFT_CHARS) return undefined
  // Text an editor cannot show or the API would refuse as unstorable is dropped, not carried along.
  return param.replace(/\u0000/g, '')
}

/** The Apply page's address with `manifest` prefilled. */
export function applyDraftHref(manifest: string): string {
  return `/apply?draft=${encodeURIComponent(manifest)}`
}

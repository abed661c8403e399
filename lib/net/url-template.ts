// REST tool URLs: `{name}` takes that argument. The request carries the tool's credential, so an
// argument must never move it elsewhere on the upstream: a value fills exactly one path segment (or
// one query value), every reserved character of it percent-encoded (`/`, `?`, `#`, `%`, `\`), and a
// path segment that would read as empty, `.` or `..` (which URL parsers and servers resolve away) is
// refused. As a second line, the final URL must keep the template's origin and its fixed path
// prefix. Placeholders in the scheme, host or port are refused (at apply as well). Pure.

const PLACEHOLDER = /\{([A-Za-z0-9_]+)\}/g

/** An argument (or a template) that cannot be turned into a URL inside the tool's declared scope. */
export class UrlTemplateError extends Error {
  constructor(
    message: string,
    readonly argument?: string,
  ) {
    super(message)
    this.name = 'UrlTemplateError'
  }
}

interface TemplateParts {
  /** `scheme://authority`, without placeholders. */
  origin: string
  path: string
  /** `?query#fragment`, whatever follows the path. */
  tail: string
}

function partsOf(template: string): TemplateParts {
  const scheme = /^[A-Za-z][A-Za-z0-9+.-]*:\/\//.exec(template)
  if (!scheme) throw new UrlTemplateError('the URL must be absolute (scheme://host/path)')
  const rest = template.slice(scheme[0].length)
  const authorityEnd = rest.search(/[/?#]/)
  const authority = authorityEnd < 0 ? rest : rest.slice(0, authorityEnd)
  if (/[{}]/.test(authority)) throw new UrlTemplateError('placeholders may stand in the path and query only, not in the scheme, host or port')
  const afterAuthority = authorityEnd < 0 ? '' : rest.slice(authorityEnd)
  const pathEnd = afterAuthority.search(/[?#]/)
  return {
    origin: scheme[0] + authority,
    path: pathEnd < 0 ? afterAuthority : afterAuthority.slice(0, pathEnd),
    tail: pathEnd < 0 ? '' : afterAuthority.slice(pathEnd),
  }
}

/** Problems with a URL template as a manifest declares it (empty when usable). */
export function urlTemplateProblems(template: string): string[] {
  try {
    scopeOf(template)
    return []
  } catch (e) {
    return [(e as Error).message]
  }
}

/** Where every call of the template must stay: its origin and the fixed path before the first placeholder. */
export function scopeOf(template: string): { origin: string; pathPrefix: string } {
  const { origin, path } = partsOf(template)
  const first = path.search(PLACEHOLDER)
  const fixed = first < 0 ? path : path.slice(0, path.lastIndexOf('/', first) + 1)
  let url: URL
  try {
    url = new URL(origin + fixed)
  } catch {
    throw new UrlTemplateError('the URL is not a valid absolute URL')
  }
  return { origin: url.origin, pathPrefix: url.pathname }
}

function textOf(value: unknown): string {
  return value === undefined || value === null ? '' : typeof value === 'string' ? value : JSON.stringify(value)
}

function encodeValue(name: string, value: unknown): string {
  const text = textOf(value)
  if (!text.isWellFormed()) throw new UrlTemplateError(`argument "${name}" is not well-formed Unicode text (lone surrogate)`, name)
  return encodeURIComponent(text)
}

// WHATWG URL and most servers read `%2e` as `.`: `.%2e` is a `..` segment as much as `..` is.
const isDotOrEmpty = (segment: string) => ['', '.', '..'].includes(segment.replace(/%2e/gi, '.'))

/**
 * The URL for one call, and the names of the arguments the template consumed. Throws
 * UrlTemplateError when an argument cannot be placed inside the tool's declared scope.
 */
export function expandUrlTemplate(template: string, args: Record<string, unknown>): { url: URL; used: Set<string> } {
  const { origin, path, tail } = partsOf(template)
  const used = new Set<string>()
  const segments = path.split('/').map((segment) => {
    let named: string | undefined
    const filled = segment.replace(PLACEHOLDER, (_m, name: string) => {
      used.add(name)
      named ??= name
      return encodeValue(name, args[name])
    })
    if (named !== undefined && isDotOrEmpty(filled))
      throw new UrlTemplateError(`argument "${named}" fills a path segment of the URL, which cannot be empty, "." or ".."`, named)
    return filled
  })
  const filledTail = tail.replace(PLACEHOLDER, (_m, name: string) => {
    used.add(name)
    return encodeValue(name, args[name])
  })
  let url: URL
  try {
    url = new URL(origin + segments.join('/') + filledTail)
  } catch {
    throw new UrlTemplateError('the arguments do not make a valid URL')
  }
  const scope = scopeOf(template)
  const segmentCount = new URL(origin + path.replace(PLACEHOLDER, 'x')).pathname.split('/').length
  if (url.origin !== scope.origin || !url.pathname.startsWith(scope.pathPrefix) || url.pathname.split('/').length !== segmentCount)
    throw new UrlTemplateError(`the URL would leave the tool's declared scope (${scope.origin}${scope.pathPrefix})`)
  return { url, used }
}

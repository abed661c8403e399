// The project's own module graph as the bundlers see it at run time, read statically: which of our
// files a file imports (`import`, `export … from`, `import()`, `require()`), leaving out imports
// TypeScript erases (`import type`, `import { type A }`), and what each file touches directly (npm
// packages, Node.js built-ins, `process`). Cheap enough for a unit test over the whole tree.
import fs from 'node:fs'
import path from 'node:path'
import ts from 'typescript'

export const PROJECT_ROOT = path.resolve(__dirname, '../..')

const SOURCE_DIRS = ['app', 'components', 'lib']
// Generated at install (the Prisma client): imported as a package would be, never walked.
const GENERATED_DIR = 'lib/generated'
const EXTENSIONS = ['.ts', '.tsx', '.mts', '/index.ts', '/index.tsx']

export interface ModuleFacts {
  /** Project-relative path, with forward slashes. */
  file: string
  /** Files of ours it imports at run time (project-relative). */
  localImports: string[]
  /** Those of them it imports only with `import()`, on demand (a subset of localImports). */
  dynamicImports: string[]
  /** Files of ours it imports for their types only (erased at build, but still a dependency of the reader). */
  typeImports: string[]
  /** What else it imports at run time: npm packages, `node:` built-ins, lib/generated paths. */
  externalImports: string[]
  /** The file starts with the 'use client' directive. */
  usesClient: boolean
  /** It imports 'server-only', so Next.js refuses to bundle it into client code. */
  serverOnly: boolean
  /** It reads or changes the process (`process.env`, `process.on`, …), beyond what Next.js inlines. */
  touchesProcess: boolean
}

function listSources(dir: string, into: string[]): string[] {
  for (const entry of fs.readdirSync(path.join(PROJECT_ROOT, dir), { withFileTypes: true })) {
    const relative = `${dir}/${entry.name}`
    if (entry.isDirectory()) {
      if (relative !== GENERATED_DIR && entry.name !== 'node_modules') listSources(relative, into)
    } else if (/\.(ts|tsx|mts)$/.test(entry.name) && !entry.name.endsWith('.d.ts')) into.push(relative)
  }
  return into
}

function resolveLocal(fromFile: string, specifier: string): string | null {
  let base: string
  if (specifier.startsWith('@/')) base = specifier.slice(2)
  else if (specifier.startsWith('./') || specifier.startsWith('../')) base = path.posix.join(path.posix.dirname(fromFile), specifier)
  else return null
  if (base.startsWith(`${GENERATED_DIR}/`)) return null
  for (const candidate of [base, ...EXTENSIONS.map((extension) => base + extension)]) {
    const absolute = path.join(PROJECT_ROOT, candidate)
    if (fs.existsSync(absolute) && fs.statSync(absolute).isFile()) return candidate
  }
  return null
}

function isErasedImport(node: ts.ImportDeclaration): boolean {
  const clause = node.importClause
  if (!clause) return false
  if (clause.isTypeOnly) return true
  const named = clause.namedBindings
  return !clause.name && named !== undefined && ts.isNamedImports(named) && named.elements.length > 0 && named.elements.every((element) => element.isTypeOnly)
}

/** `process.env.NODE_ENV` and `process.env.NEXT_PUBLIC_*`: Next.js writes their values into client bundles. */
function isInlinedAtBuild(processAccess: ts.PropertyAccessExpression): boolean {
  const variable = processAccess.parent
  return processAccess.name.text === 'env' && ts.isPropertyAccessExpression(variable) && /^(NODE_ENV|NEXT_PUBLIC_\w+)$/.test(variable.name.text)
}

/** One source file's facts; `file` is project-relative (any directory: instrumentation.ts, scripts/). */
export function readModule(file: string): ModuleFacts {
  const text = fs.readFileSync(path.join(PROJECT_ROOT, file), 'utf8')
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS)
  const specifiers: string[] = []
  const staticSpecifiers = new Set<string>()
  const typeSpecifiers: string[] = []
  let touchesProcess = false
  const addStatic = (specifier: string) => {
    specifiers.push(specifier)
    staticSpecifiers.add(specifier)
  }
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node)) {
      const specifier = (node.moduleSpecifier as ts.StringLiteral).text
      if (isErasedImport(node)) typeSpecifiers.push(specifier)
      else addStatic(specifier)
    } else if (ts.isExportDeclaration(node)) {
      if (node.moduleSpecifier) {
        const specifier = (node.moduleSpecifier as ts.StringLiteral).text
        if (node.isTypeOnly) typeSpecifiers.push(specifier)
        else addStatic(specifier)
      }
    } else if (ts.isCallExpression(node)) {
      const [first] = node.arguments
      const loads = node.expression.kind === ts.SyntaxKind.ImportKeyword || (ts.isIdentifier(node.expression) && node.expression.text === 'require')
      if (loads && first && ts.isStringLiteralLike(first)) {
        if (node.expression.kind === ts.SyntaxKind.ImportKeyword) specifiers.push(first.text)
        else addStatic(first.text)
      }
    } else if (ts.isPropertyAccessExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'process' && !isInlinedAtBuild(node)) {
      touchesProcess = true
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
  const localImports: string[] = []
  const dynamicImports: string[] = []
  const externalImports: string[] = []
  for (const specifier of specifiers) {
    const local = resolveLocal(file, specifier)
    if (local) {
      localImports.push(local)
      if (!staticSpecifiers.has(specifier)) dynamicImports.push(local)
    } else externalImports.push(specifier.startsWith('@/') ? specifier.slice(2) : specifier)
  }
  const typeImports = typeSpecifiers.flatMap((specifier) => resolveLocal(file, specifier) ?? [])
  const firstStatement = source.statements[0]
  const usesClient =
    firstStatement !== undefined &&
    ts.isExpressionStatement(firstStatement) &&
    ts.isStringLiteral(firstStatement.expression) &&
    firstStatement.expression.text === 'use client'
  return { file, localImports, dynamicImports, typeImports, externalImports, usesClient, serverOnly: externalImports.includes('server-only'), touchesProcess }
}

/** Every source file of app/, components/ and lib/, read once. */
export function readModuleGraph(): Map<string, ModuleFacts> {
  const graph = new Map<string, ModuleFacts>()
  for (const dir of SOURCE_DIRS) for (const file of listSources(dir, [])) graph.set(file, readModule(file))
  return graph
}

/**
 * Every module of ours that loading `entries` loads, each with the chain of imports that brought it
 * in (entry first), for error messages: the entries' imports, static and dynamic (an entry such as
 * instrumentation.ts awaits each), and from there the static imports only (an `import()` further in
 * loads on demand).
 */
export function modulesLoadedBy(entries: string[]): Map<string, string[]> {
  const reached = new Map<string, string[]>()
  const queue = entries.map((entry) => [entry])
  while (queue.length > 0) {
    const chain = queue.shift()!
    const file = chain[chain.length - 1]
    if (reached.has(file)) continue
    reached.set(file, chain)
    const facts = readModule(file)
    const followed = chain.length === 1 ? facts.localImports : facts.localImports.filter((next) => !facts.dynamicImports.includes(next))
    for (const next of followed) if (!reached.has(next)) queue.push([...chain, next])
  }
  return reached
}

/**
 * Every module the client bundles hold: the 'use client' files and all they import, each with the
 * chain of imports that brought it in (client file first), for error messages.
 */
export function clientModules(graph: Map<string, ModuleFacts>): Map<string, string[]> {
  const reached = new Map<string, string[]>()
  const queue = [...graph.values()].filter((facts) => facts.usesClient).map((facts) => [facts.file])
  while (queue.length > 0) {
    const chain = queue.shift()!
    const file = chain[chain.length - 1]
    if (reached.has(file)) continue
    reached.set(file, chain)
    for (const next of graph.get(file)?.localImports ?? []) if (!reached.has(next)) queue.push([...chain, next])
  }
  return reached
}

// README.md's variable tables, from lib/config.ts (shared by `npm run docs:config` and the unit test
// that fails when README.md differs). Each group's table sits between its markers, in the README
// section about that part:
//   <!-- config:core:start (generated from lib/config.ts by `npm run docs:config`) -->
//   …
//   <!-- config:core:end -->
import { CONFIG_DECLARATIONS, CONFIG_GROUPS, type ConfigGroup, type Declaration } from '@/lib/config'

export const README_PATH = 'README.md'

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ')

function values(d: Declaration): string {
  const notes = [d.secret ? 'a secret: never shown in messages' : '', d.alsoReadBy ? `read by ${d.alsoReadBy} too` : ''].filter(Boolean)
  return notes.length ? `${d.rule} (${notes.join('; ')})` : d.rule
}

/** The Markdown table of one group's variables, in declaration order. */
export function configTable(group: ConfigGroup): string {
  const rows = Object.entries(CONFIG_DECLARATIONS)
    .filter(([, d]) => d.group === group)
    .map(([name, d]) => `| \`${name}\` | ${cell(d.meaning)} | ${cell(values(d))} | ${cell(d.defaultText)} |`)
  return ['| variable | meaning | values | default |', '|---|---|---|---|', ...rows].join('\n')
}

/** `readme` with every group's table rewritten between its markers; throws when a group's markers are missing. */
export function withConfigTables(readme: string): string {
  let text = readme
  for (const group of CONFIG_GROUPS) {
    const block = new RegExp(`(<!-- config:${group}:start[^>]*-->)\\n(?:[^]*?\\n)?(<!-- config:${group}:end -->)`)
    if (!block.test(text))
      throw new Error(`${README_PATH} has no <!-- config:${group}:start … --> … <!-- config:${group}:end --> block for the ${group} variables`)
    text = text.replace(block, (_, start: string, end: string) => `${start}\n${configTable(group)}\n${end}`)
  }
  return text
}

// The words of a tool search, as the index and the query both see them (docs/design/effective-tools.md#tool-search):
// identifiers split into words, a light English stemmer, and a small table of general synonyms, so
// "refunds" finds create_refund and "open a ticket" finds zendesk.create_ticket. Pure: no I/O.

/** Words that say nothing about which tool is meant. */
const STOP_WORDS = new Set(
  'a an the to for of in on at by with from and or my our your me i we us it its this that these those please some any is are be was into as about can could would should will want need needs just so then than there here what which who whom how do does up out'.split(
    ' ',
  ),
)

/**
 * General synonyms: each word stands for the groups it belongs to. Kept small and about everyday
 * verbs and nouns of APIs, never about one service; a word may belong to two groups ("show" is
 * get one thing or list many).
 */
const SYNONYM_GROUPS: readonly (readonly string[])[] = [
  ['create', 'open', 'new', 'add', 'make', 'raise', 'submit', 'register', 'insert', 'compose', 'draft', 'generate'],
  ['update', 'edit', 'change', 'modify', 'set', 'rename', 'patch', 'adjust', 'amend', 'alter'],
  ['delete', 'remove', 'destroy', 'drop', 'erase', 'purge', 'discard', 'wipe'],
  ['get', 'fetch', 'read', 'show', 'retrieve', 'view', 'display', 'see', 'describe', 'inspect', 'detail', 'info', 'lookup', 'look'],
  ['list', 'enumerate', 'browse', 'show', 'view', 'display', 'see', 'all'],
  ['search', 'find', 'query', 'lookup', 'look', 'locate', 'filter'],
  ['send', 'post', 'notify', 'deliver', 'dm', 'publish', 'broadcast'],
  ['run', 'execute', 'trigger', 'invoke', 'launch', 'kick', 'dispatch', 'start'],
  ['stop', 'cancel', 'abort', 'halt', 'terminate', 'kill', 'void'],
  ['close', 'resolve', 'finish', 'complete', 'done'],
  ['restart', 'reboot', 'bounce', 'recycle'],
  ['deploy', 'release', 'ship', 'rollout'],
  ['pay', 'charge', 'bill', 'payment'],
  ['refund', 'reimburse', 'repay'],
  ['user', 'member', 'person', 'people', 'employee', 'teammate'],
  ['customer', 'client', 'buyer'],
  ['message', 'msg', 'chat'],
  ['repository', 'repo'],
  ['kubernetes', 'k8s'],
  ['database', 'db'],
  ['configuration', 'config'],
  ['permission', 'access', 'role', 'privilege'],
  ['download', 'export'],
  ['upload', 'attach'],
  ['error', 'exception', 'failure', 'crash'],
  ['comment', 'note', 'reply'],
  ['schedule', 'calendar', 'book'],
  ['meeting', 'event', 'appointment'],
  ['document', 'doc'],
  ['issue', 'bug', 'ticket', 'defect'],
  ['password', 'credential', 'secret'],
  ['instance', 'vm', 'machine'],
  ['email', 'mail'],
  ['inventory', 'stock'],
  ['cost', 'spend', 'spending'],
  ['label', 'tag'],
  ['folder', 'directory'],
  ['image', 'picture', 'photo'],
  ['link', 'url'],
  ['rollback', 'revert', 'undo'],
  ['disable', 'deactivate', 'suspend'],
  ['enable', 'activate'],
  ['mute', 'silence', 'snooze'],
  ['acknowledge', 'ack'],
]

/** Marks a synonym group's term, so it never equals a word's stem. */
export const SYNONYM_MARK = '~'

const VOWEL = /[aeiouy]/
const KEEP_DOUBLE = /[lsz]/

/**
 * A light suffix stripper (plural, -ing, -ed, -ation, -ion), then a trailing e, so create, creates,
 * created, creating and creation meet on one stem. Not Porter: it needs only to make a word and its
 * forms agree, on both sides of the search.
 */
export function stem(word: string): string {
  let w = word
  if (w.length > 3 && !/\d/.test(w)) {
    if (w.endsWith('ies') && w.length > 4) w = `${w.slice(0, -3)}y`
    else if (w.endsWith('sses')) w = w.slice(0, -2)
    else if (/(x|z|ch|sh)es$/.test(w)) w = w.slice(0, -2)
    else if (w.endsWith('s') && !/(ss|us|is)$/.test(w)) w = w.slice(0, -1)
    if (w.length > 5 && w.endsWith('ing') && VOWEL.test(w.slice(0, -3))) w = undouble(w.slice(0, -3))
    else if (w.length > 4 && w.endsWith('ied')) w = `${w.slice(0, -3)}y`
    else if (w.length > 4 && w.endsWith('ed') && VOWEL.test(w.slice(0, -2))) w = undouble(w.slice(0, -2))
    else if (w.length > 6 && w.endsWith('ation')) w = w.slice(0, -3)
    else if (w.length > 5 && w.endsWith('tion')) w = w.slice(0, -3)
    if (w.length > 3 && w.endsWith('e')) w = w.slice(0, -1)
  }
  return w
}

function undouble(w: string): string {
  const last = w.at(-1)!
  return w.length > 2 && last === w.at(-2) && !VOWEL.test(last) && !KEEP_DOUBLE.test(last) ? w.slice(0, -1) : w
}

/** Every stem of a group, to the group's name (its first word's stem); a word in two groups has two. */
const GROUPS_OF_STEM: ReadonlyMap<string, readonly string[]> = (() => {
  const groups = new Map<string, string[]>()
  for (const group of SYNONYM_GROUPS) {
    const name = `${SYNONYM_MARK}${stem(group[0])}`
    for (const word of group) {
      const s = stem(word)
      groups.set(s, [...(groups.get(s) ?? []), name])
    }
  }
  return groups
})()

/** Splits identifiers and text into lower-case words: snake_case, camelCase, dots, slashes, digits. */
export function splitWords(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 0)
}

/**
 * The terms one word of a tool or of a query stands for: its stem and the synonym groups of that
 * stem; nothing for a stop word. The same on both sides, so a query word meets the tool's words by
 * stem or by group.
 */
export function termsOf(word: string): string[] {
  const w = word.toLowerCase()
  if (STOP_WORDS.has(w)) return []
  const s = stem(w)
  const groups = GROUPS_OF_STEM.get(s)
  return groups ? [s, ...groups] : [s]
}

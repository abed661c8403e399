// Which engine searched a pattern: JavaScript's RegExp backtracks (exponentially on `^(a+)+$`), RE2
// runs in time linear in the input. Tests watch the engine instead of timing a ReDoS input, so a
// busy machine cannot fail them and a fast one cannot hide a backtracking engine; timing lives in
// scripts/bench/.
import { RE2JS } from 're2js'
import { vi } from 'vitest'

export type PatternEngine = 'backtracking' | 'RE2'

export interface PatternWatch {
  /** The engines that searched `source` since the watch began (RE2 is given it translated from ECMA-262). */
  searchedWith(source: string): PatternEngine[]
  stop(): void
}

/** Records every search by RegExp#test and RE2JS#test in this process until `stop()`, answering as before. */
export function watchPatternSearches(): PatternWatch {
  const searches: Array<{ engine: PatternEngine; source: string }> = []
  const spies = [
    vi.spyOn(RegExp.prototype, 'test').mockImplementation(function (this: RegExp, input: string) {
      searches.push({ engine: 'backtracking', source: this.source })
      return RegExp.prototype.exec.call(this, input) !== null
    }),
    vi.spyOn(RE2JS.prototype, 'test').mockImplementation(function (this: RE2JS, input: Parameters<RE2JS['test']>[0]) {
      searches.push({ engine: 'RE2', source: this.pattern() })
      return this.matcher(input).find()
    }),
  ]
  return {
    searchedWith: (source) => {
      const translated = RE2JS.translateRegExp(source)
      return [...new Set(searches.filter((s) => s.source === source || s.source === translated).map((s) => s.engine))]
    },
    stop: () => spies.forEach((spy) => spy.mockRestore()),
  }
}

/** Runs `f` under a watch: its value, and the engines each pattern was searched with meanwhile. */
export function searchesDuring<T>(f: () => T): { value: T; searchedWith: PatternWatch['searchedWith'] } {
  const watch = watchPatternSearches()
  try {
    return { value: f(), searchedWith: watch.searchedWith }
  } finally {
    watch.stop()
  }
}

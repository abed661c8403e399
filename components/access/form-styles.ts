export const FIELD = 'h-8 rounded-md border border-slate-300 bg-white px-2 text-sm text-slate-900 focus:border-slate-500 focus:outline-none'
export const LABEL = 'flex flex-col gap-0.5 text-xs font-medium text-slate-600'

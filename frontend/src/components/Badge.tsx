import type { ReactNode } from 'react';

export type BadgeTone = 'green' | 'amber' | 'red' | 'blue' | 'sky' | 'slate' | 'violet';

const TONES: Record<BadgeTone, string> = {
  green: 'bg-green-100 text-green-900 ring-green-700/30',
  amber: 'bg-amber-100 text-amber-900 ring-amber-700/30',
  red: 'bg-red-100 text-red-900 ring-red-700/30',
  blue: 'bg-blue-100 text-blue-900 ring-blue-700/30',
  sky: 'bg-sky-100 text-sky-900 ring-sky-700/30',
  slate: 'bg-slate-200 text-slate-800 ring-slate-600/30',
  violet: 'bg-violet-100 text-violet-900 ring-violet-700/30',
};

/** A status as a coloured pill: one look for every status badge, public and back-office. */
export function Badge({ tone, children }: { tone: BadgeTone; children: ReactNode }) {
  return (
    <span
      className={`inline-flex items-center whitespace-nowrap rounded-full px-2.5 py-0.5 text-sm font-semibold ring-1 ring-inset ${TONES[tone]}`}
    >
      {children}
    </span>
  );
}

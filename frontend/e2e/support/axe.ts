// axe-core (through @axe-core/playwright) on the page as it is now: WCAG 2.0–2.2 A/AA, best
// practices and the experimental rules (label-content-name-mismatch is one of them). Every
// finding is written to test-output/e2e/axe/<name>.json; serious and critical ones fail the test.
import fs from 'node:fs';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { SCREENSHOT_DIR, settle } from './browser';

export const AXE_DIR = path.join(SCREENSHOT_DIR, 'axe');

const TAGS = [
  'wcag2a',
  'wcag2aa',
  'wcag21a',
  'wcag21aa',
  'wcag22aa',
  'best-practice',
  'experimental',
];

export interface AxeFinding {
  id: string;
  impact: string | null | undefined;
  help: string;
  targets: string[];
}

/** Runs axe on the page (or only inside `include`); answers every finding, throws on serious ones. */
export async function expectAccessible(
  page: Page,
  name: string,
  { include }: { include?: string } = {},
): Promise<AxeFinding[]> {
  await settle(page);
  // axe.run in the page itself: the default (runPartial, then finishRun in a new blank page per
  // check) is for cross-origin frames, which the platform has none of, and costs a page each time;
  // only the violations are read, so axe does not collect the passing nodes' details
  let builder = new AxeBuilder({ page })
    .withTags(TAGS)
    .setLegacyMode()
    .options({ resultTypes: ['violations'] });
  if (include) builder = builder.include(include);
  const { violations } = await builder.analyze();
  const findings: AxeFinding[] = violations.map((v) => ({
    id: v.id,
    impact: v.impact,
    help: v.help,
    targets: v.nodes.slice(0, 5).map((n) => n.target.join(' ')),
  }));
  fs.mkdirSync(AXE_DIR, { recursive: true });
  fs.writeFileSync(path.join(AXE_DIR, `${name}.json`), JSON.stringify(findings, null, 2));
  const serious = findings.filter((f) => f.impact === 'serious' || f.impact === 'critical');
  if (serious.length > 0) {
    throw new Error(
      `axe on ${name} (${page.url()}): ${serious.length} serious or critical finding(s)\n` +
        serious
          .map((f) => `  ${f.id} (${f.impact}): ${f.help}: ${f.targets.join(', ')}`)
          .join('\n'),
    );
  }
  return findings;
}

// The import rules of .dependency-cruiser.cjs (make lint): each is shown refusing a small example,
// laid out in a scratch folder as if it were part of the repository.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { REPO_ROOT } from '../src/paths';

interface Violation {
  rule: { name: string };
  from: string;
  to: string;
  cycle?: { name: string }[];
}

/** Cruises the files (path → text) with the repository's rules; answers the violations. */
function cruise(files: Record<string, string>): Violation[] {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'depcruise-'));
  try {
    for (const [file, text] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      fs.writeFileSync(path.join(dir, file), text);
    }
    const roots = [...new Set(Object.keys(files).map((f) => f.split('/')[0]!))];
    const res = spawnSync(
      path.join(REPO_ROOT, 'node_modules/.bin/depcruise'),
      [
        '--config',
        path.join(REPO_ROOT, '.dependency-cruiser.cjs'),
        '--no-cache',
        '--output-type',
        'json',
        ...roots,
      ],
      { cwd: dir, encoding: 'utf8' },
    );
    if (!res.stdout) throw new Error(`depcruise printed nothing: ${res.stderr}`);
    const { summary } = JSON.parse(res.stdout) as { summary: { violations: Violation[] } };
    return summary.violations;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const rules = (violations: Violation[]) => violations.map((v) => v.rule.name).sort();

test('when two files import each other, even only as types, then lint refuses the cycle', () => {
  const violations = cruise({
    'services/demo/src/domain/export.ts':
      "import type { Repo } from '../data-access/repo';\nexport const unfiltered = (r: Repo) => r.q === '';\n",
    'services/demo/src/data-access/repo.ts':
      "import { unfiltered } from '../domain/export';\nexport interface Repo { q: string }\nexport const all = (r: Repo) => unfiltered(r);\n",
  });
  expect(rules(violations)).toEqual(['no-circular']);
  expect(violations[0]!.cycle!.map((c) => c.name)).toContain(
    'services/demo/src/data-access/repo.ts',
  );
});

test('when a cycle runs through three files of different workspaces, then lint refuses it; a chain is fine', () => {
  expect(
    rules(
      cruise({
        'gateway/src/a.ts': "import { b } from '../../infra/src/b';\nexport const a = () => b;\n",
        'infra/src/b.ts':
          "import { c } from '../../tests/system/src/c';\nexport const b = () => c;\n",
        'tests/system/src/c.ts':
          "import { a } from '../../../gateway/src/a';\nexport const c = () => a;\n",
      }),
    ),
  ).toEqual(['no-circular']);
  expect(
    cruise({
      'gateway/src/a.ts': "import { b } from '../../infra/src/b';\nexport const a = () => b;\n",
      'infra/src/b.ts': 'export const b = 1;\n',
    }),
  ).toEqual([]);
});

test("when the notification service's mail module imports the activity module, or the privacy part a module, then lint refuses it", () => {
  const violations = cruise({
    'services/notification/src/mail/domain/mail-service.ts':
      "import type { AnyEvent } from '../../activity/domain/activity-mapping';\nexport type E = AnyEvent;\n",
    'services/notification/src/activity/domain/activity-mapping.ts':
      'export type AnyEvent = { name: string };\n',
    'services/notification/src/privacy/domain/privacy-service.ts':
      "import type { E } from '../../mail/domain/mail-service';\nexport type P = E;\n",
  });
  expect(rules(violations)).toEqual([
    'notification-modules-apart',
    'notification-privacy-below-modules',
  ]);
});

describe('the SPA’s feature boundaries (frontend/README.md)', () => {
  const F = 'frontend/src/features';
  const files = {
    [`${F}/catalog/index.ts`]: "export { CategoryIconView } from './lib/category-icon';\n",
    [`${F}/catalog/lib/category-icon.ts`]: 'export const CategoryIconView = 1;\n',
    [`${F}/admin/session/index.ts`]: "export { useSession } from './use-session';\n",
    [`${F}/admin/session/use-session.ts`]: 'export const useSession = () => 1;\n',
    [`${F}/admin/session/components/LoginPage.ts`]: 'export default 1;\n',
    [`${F}/admin/lib/errors.ts`]: 'export const message = 1;\n',
  };

  test('when features import each other through their index.ts, and back-office features its shared lib, then lint is content', () => {
    expect(
      cruise({
        ...files,
        [`${F}/applications/components/Apply.ts`]:
          "import { CategoryIconView } from '../../catalog';\nexport const a = CategoryIconView;\n",
        [`${F}/admin/lots/components/LotPage.ts`]:
          "import { CategoryIconView } from '../../../catalog';\nimport { useSession } from '../../session';\nimport { message } from '../../lib/errors';\nexport const l = [CategoryIconView, useSession, message];\n",
        [`${F}/admin/AdminRoutes.ts`]:
          "import { useSession } from './session';\nexport const pages = [useSession, () => import('./session/components/LoginPage')];\n",
      }),
    ).toEqual([]);
  });

  test('when a feature, the back-office’s shared code or its shell reaches into another feature, or shared app code into any, then lint refuses it', () => {
    const violations = cruise({
      ...files,
      [`${F}/applications/components/Apply.ts`]:
        "import { CategoryIconView } from '../../catalog/lib/category-icon';\nexport const a = CategoryIconView;\n",
      [`${F}/admin/lots/components/LotPage.ts`]:
        "import { CategoryIconView } from '../../../catalog/lib/category-icon';\nexport const l = CategoryIconView;\n",
      [`${F}/admin/lib/form-draft.ts`]:
        "import { useSession } from '../session/use-session';\nexport const d = useSession;\n",
      [`${F}/admin/AdminRoutes.ts`]:
        "import { useSession } from './session/use-session';\nexport const r = useSession;\n",
      ['frontend/src/lib/format.ts']:
        "import { CategoryIconView } from '../features/catalog';\nexport const f = CategoryIconView;\n",
    });
    expect(violations.map((v) => `${v.rule.name} ${v.from}`).sort()).toEqual([
      `spa-admin-feature-entry ${F}/admin/lib/form-draft.ts`,
      `spa-admin-feature-entry ${F}/admin/lots/components/LotPage.ts`,
      `spa-admin-shell-entry ${F}/admin/AdminRoutes.ts`,
      `spa-feature-entry ${F}/applications/components/Apply.ts`,
      'spa-shared-code-below-features frontend/src/lib/format.ts',
    ]);
  });
});

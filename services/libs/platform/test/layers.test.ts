/**
 * The layers of every service are enforced by lint (eslint.config.mjs, STYLE.md rule 9). These
 * are the documented examples: each snippet is linted as if it were a file in that place.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(__dirname, '../../../..');

function lint(file: string, code: string): string[] {
  const res = spawnSync(
    path.join(root, 'node_modules/.bin/eslint'),
    ['--stdin', '--stdin-filename', path.join(root, file), '--format', 'json'],
    { cwd: root, input: code, encoding: 'utf8' },
  );
  const [result] = JSON.parse(res.stdout || '[]') as {
    messages: { ruleId: string | null; message: string }[];
  }[];
  return (result?.messages ?? [])
    .filter((m) => m.ruleId === '@typescript-eslint/no-restricted-imports')
    .map((m) => m.message);
}

const domainFile = 'services/catalog/src/domain/layers-example.ts';

test('when domain code imports the platform barrel, mongoose or express, then lint refuses it', () => {
  expect(
    lint(domainFile, "import { withDocLock } from '@furniture/platform';\nvoid withDocLock;\n"),
  ).toEqual([
    "'@furniture/platform' import is restricted from being used. Domain code imports the platform only through @furniture/platform/domain.",
  ]);
  expect(lint(domainFile, "import mongoose from 'mongoose';\nvoid mongoose;\n")).toHaveLength(1);
  expect(
    lint(domainFile, "import type { Request } from 'express';\nexport type R = Request;\n"),
  ).toHaveLength(1);
});

test("when domain or data-access code reaches for a lock or the store's internals, then lint refuses it", () => {
  const lock = "import { withLock } from '@furniture/platform/src/store/locks';\nvoid withLock;\n";
  expect(lint(domainFile, lock)).toHaveLength(1);
  expect(
    lint(
      domainFile,
      "import { withLock } from '../../../libs/platform/src/store/locks';\nvoid withLock;\n",
    ),
  ).toHaveLength(1);
  expect(lint('services/catalog/src/data-access/layers-example.ts', lock)).toHaveLength(1);
  // the store itself, as a type, is a repository's business only
  expect(
    lint(domainFile, "import type { Store } from '@furniture/platform';\nexport type S = Store;\n"),
  ).toHaveLength(1);
});

test('when domain code imports data access at run time, then lint refuses it; as a type it is allowed', () => {
  expect(
    lint(
      domainFile,
      "import { LotsRepository } from '../data-access/lots-repository';\nvoid LotsRepository;\n",
    ),
  ).toHaveLength(1);
  expect(
    lint(
      domainFile,
      "import type { LotsRepository } from '../data-access/lots-repository';\nexport type L = LotsRepository;\n",
    ),
  ).toEqual([]);
  expect(
    lint(domainFile, "import { AppError } from '@furniture/platform/domain';\nvoid AppError;\n"),
  ).toEqual([]);
});

test('when an entry point reaches data access, or data access an entry point, then lint refuses it', () => {
  expect(
    lint(
      'services/catalog/src/entry-points/http/layers-example.ts',
      "import type { LotsRepository } from '../../data-access/lots-repository';\nexport type L = LotsRepository;\n",
    ),
  ).toHaveLength(1);
  expect(
    lint(
      'services/catalog/src/data-access/layers-example.ts',
      "import { lotsRouter } from '../entry-points/http/lots-router';\nvoid lotsRouter;\n",
    ),
  ).toHaveLength(1);
});

test('when a service is made of modules (src/<module>/domain, …), then each module has the same layers', () => {
  expect(
    lint(
      'services/notification/src/mail/domain/layers-example.ts',
      "import { MailRepository } from '../data-access/mail-repository';\nvoid MailRepository;\n",
    ),
  ).toHaveLength(1);
  expect(
    lint(
      'services/notification/src/mail/domain/layers-example.ts',
      "import mongoose from 'mongoose';\nvoid mongoose;\n",
    ),
  ).toHaveLength(1);
  expect(
    lint(
      'services/notification/src/activity/entry-points/http/layers-example.ts',
      "import type { ActivityRepository } from '../../data-access/activity-repository';\nexport type A = ActivityRepository;\n",
    ),
  ).toHaveLength(1);
  expect(
    lint(
      'services/notification/src/activity/data-access/layers-example.ts',
      "import { activityRouter } from '../entry-points/http/activity-router';\nvoid activityRouter;\n",
    ),
  ).toHaveLength(1);
});

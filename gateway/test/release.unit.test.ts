// What the gateway says about the release it runs: the platform's one version (the root
// package.json's) in the health report, and the public site's source link (AGPL-3.0 § 13).
import fs from 'node:fs';
import path from 'node:path';
import express from 'express';
import { repositoryUrl } from '@furniture/platform';
import { assertAnswerInContract } from '@furniture/platform/testing';
import {
  api,
  listen,
  silentLogger,
  TEST_AUDIENCE,
  TEST_ISSUER,
  testKeys,
} from '@furniture/platform/testing';
import { createGatewayApp } from '../src/app';
import { loadGatewayConfig } from '../src/config';

const root = path.resolve(__dirname, '../..');
const rootPackage = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as {
  version: string;
  repository?: string | { url?: string };
};

let services: Awaited<ReturnType<typeof listen>>;
const gateways: Awaited<ReturnType<typeof listen>>[] = [];

beforeAll(async () => {
  const stub = express();
  stub.get('/ready', (_req, res) => {
    res.json({ status: 'ready', service: 'stub', checks: { mongo: true } });
  });
  services = await listen(stub);
});
afterAll(async () => {
  for (const g of gateways) await g.close();
  await services?.close();
});

async function gateway(env: Record<string, string> = {}) {
  const config = loadGatewayConfig({
    AUTH_URL: services.url,
    CATALOG_URL: services.url,
    APPLICATIONS_URL: services.url,
    MEDIA_URL: services.url,
    NOTIFICATION_URL: services.url,
    JWT_PUBLIC_KEY: testKeys().publicKey,
    JWT_ISSUER: TEST_ISSUER,
    JWT_AUDIENCE: TEST_AUDIENCE,
    SPA_DIR: '/nonexistent',
    ...env,
  });
  const g = await listen(createGatewayApp({ config, logger: silentLogger }));
  gateways.push(g);
  return g;
}

/** GET without following a redirect, the answer checked against the OpenAPI document. */
async function getSource(url: string) {
  const res = await fetch(`${url}/api/v1/source`, { redirect: 'manual' });
  const body = await res.text();
  assertAnswerInContract({
    method: 'GET',
    url: res.url || `${url}/api/v1/source`,
    status: res.status,
    contentType: res.headers.get('content-type') ?? '',
    body,
  });
  return { status: res.status, location: res.headers.get('location'), body };
}

test('when the health report is asked for, then it names the root package.json version', async () => {
  expect(rootPackage.version).toMatch(/^\d+\.\d+\.\d+(-[\w.]+)?$/);
  const health = await api((await gateway()).url).get('/api/v1/health');
  expect(health.status).toBe(200);
  expect(health.body.version).toBe(rootPackage.version);
});

test('when SOURCE_URL is set, then the source link leads there', async () => {
  const g = await gateway({ SOURCE_URL: 'https://code.example.org/moebelbruecke' });
  const answer = await getSource(g.url);
  expect(answer.status).toBe(302);
  expect(answer.location).toBe('https://code.example.org/moebelbruecke');
});

test('when SOURCE_URL is not set, then the link leads to the repository package.json names, or to a note in German and Ukrainian', async () => {
  const answer = await getSource((await gateway()).url);
  const repository = repositoryUrl(rootPackage.repository);
  if (repository) {
    expect(answer).toMatchObject({ status: 302, location: repository });
  } else {
    expect(answer.status).toBe(200);
    expect(answer.body).toContain('AGPL-3.0-or-later');
    expect(answer.body).toContain('Quellcode');
    expect(answer.body).toContain('вихідного коду');
  }
  // an empty value is the same as none; anything else must be a web address
  expect((await getSource((await gateway({ SOURCE_URL: '' })).url)).status).toBe(
    repository ? 302 : 200,
  );
  expect(() => loadGatewayConfig({ JWT_PUBLIC_KEY: 'x', SOURCE_URL: 'ftp://x.org/a' })).toThrow(
    /SOURCE_URL/,
  );
});

test('when a repository is written in package.json style, then its web address is read from it', () => {
  expect(repositoryUrl({ url: 'git+https://code.example.org/o/moebel.git' })).toBe(
    'https://code.example.org/o/moebel',
  );
  expect(repositoryUrl('https://code.example.org/o/moebel')).toBe(
    'https://code.example.org/o/moebel',
  );
  expect(repositoryUrl('github:o/moebel')).toBeNull();
  expect(repositoryUrl(undefined)).toBeNull();
});

// The published API's reference page: /api/docs draws the OpenAPI document the gateway generates
// from the contracts, with Swagger UI served by the gateway itself (no CDN, no CSP violation).
import { screenshot, visible } from '../support/browser';
import type { World } from '../support/world';

export function apiDocsScenario(world: World): void {
  test('the API reference at /api/docs renders every service from the gateway alone', () =>
    world.scenario('api docs', async () => {
      const page = await (await world.desktop()).newPage();
      const problems: string[] = [];
      page.on('console', (m) => {
        if (m.type() === 'error') problems.push(m.text()); // CSP violations are reported here
      });
      page.on('pageerror', (err) => problems.push(err.message));
      const elsewhere: string[] = [];
      page.on('request', (r) => {
        const url = r.url();
        if (!url.startsWith(world.stack.baseUrl) && !url.startsWith('data:')) elsewhere.push(url);
      });

      await page.goto('/api/docs');
      await visible(page.getByRole('heading', { name: /Möbelbrücke API/ }));
      for (const tag of ['auth', 'catalog', 'applications', 'media', 'notification']) {
        await visible(page.locator(`#operations-tag-${tag}`));
      }

      // one operation opened: its parameters, its answers and who may call it
      const operation = page.locator('#operations-applications-patchApplicationsIdStatus');
      await operation.locator('.opblock-summary').click();
      await visible(operation.getByText('Staff: admin or volunteer (bearer token).'));
      await visible(operation.locator('.response[data-code="200"]'));
      await visible(operation.locator('.response[data-code="422"]'));
      await visible(operation.locator('.parameters .parameter__name', { hasText: /^id\b/ }));
      await screenshot(page, 'api-docs-desktop', { fullPage: false });

      expect(problems).toEqual([]);
      expect(elsewhere).toEqual([]);
    }));
}

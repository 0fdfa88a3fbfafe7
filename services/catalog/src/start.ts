import { runService } from '@furniture/platform';
import { loadCatalogConfig } from './config';
import { composeCatalog } from './compose';

runService({
  name: 'catalog',
  loadConfig: loadCatalogConfig,
  compose: async (deps) => {
    const service = await composeCatalog(deps);
    return { ...service, start: () => service.relay.start() };
  },
});

// The browser tests of issue #9: the whole platform (built services, gateway and SPA on free
// ports, against the test infrastructure) in Debian's Chromium. One platform and one browser for
// the file; the scenarios run in this order and each opens its own browser contexts. Every page
// at both widths in both languages: pages.e2e.ts, beside this file.
import { World } from './support/world';
import { adminLotScenario } from './scenarios/admin-lot';
import { apiDocsScenario } from './scenarios/api-docs';
import { dateInputScenario } from './scenarios/date-input';
import { dialogsScenario } from './scenarios/dialogs';
import { donationScenario } from './scenarios/donation';
import { familyScenario } from './scenarios/family';
import { handoverScenario } from './scenarios/handover';
import { languageScenario } from './scenarios/language';
import { loopsScenario } from './scenarios/loops';
import { messagesScenario } from './scenarios/messages';
import { partnersScenario } from './scenarios/partners';
import { privacyScenario } from './scenarios/privacy';
import { queueScenario } from './scenarios/queue';
import { returningFamilyScenario } from './scenarios/returning-family';
import { secondChanceScenario } from './scenarios/second-chance';
import { sessionScenario } from './scenarios/session';
import { volunteerScenario } from './scenarios/volunteer';
import { warehouseScenario } from './scenarios/warehouse';
import { wishScenario } from './scenarios/wish';

const world = new World();

beforeAll(() => world.start(), 240_000);
afterAll(() => world.stop(), 60_000);

familyScenario(world);
adminLotScenario(world);
donationScenario(world);
queueScenario(world);
secondChanceScenario(world);
languageScenario(world);
volunteerScenario(world);
wishScenario(world);
loopsScenario(world);
dialogsScenario(world);
dateInputScenario(world);
apiDocsScenario(world);
returningFamilyScenario(world);
privacyScenario(world);
sessionScenario(world);
handoverScenario(world);
messagesScenario(world);
warehouseScenario(world);
partnersScenario(world);

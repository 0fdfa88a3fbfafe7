import { ActionTypes } from '@furniture/contracts';
import deAdmin from '../../../../../public/locales/de/admin.json';
import ukAdmin from '../../../../../public/locales/uk/admin.json';

// The activity page's filter and lines name every action type by these labels; a type without
// one would show its raw i18n key (the handover and message types of wave 3 once did).
test.each([
  ['de', deAdmin],
  ['uk', ukAdmin],
])(
  'when the activity log names an action type in %s, then every type has a label',
  (_lang, texts) => {
    const labels = texts.activity.actions as Record<string, string>;
    const missing = ActionTypes.filter((a) => !labels[a]?.trim());
    expect(missing).toEqual([]);
  },
);

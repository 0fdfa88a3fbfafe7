import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import type { FieldProblem } from './validation';

/** The text of a field error: a problem key translated, or a server's text as it came. */
export function useErrorText() {
  const { t } = useTranslation('common');
  return useCallback(
    (problem: FieldProblem | string | undefined): string | undefined => {
      if (problem === undefined) return undefined;
      if (typeof problem === 'string') return problem;
      return t(`validation.${problem.key}`, { count: problem.count });
    },
    [t],
  );
}

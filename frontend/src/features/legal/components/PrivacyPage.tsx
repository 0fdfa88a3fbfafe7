import { useTranslation } from 'react-i18next';
import { Limits } from '@furniture/contracts/limits';
import { env } from '../../../config/env';
import { LegalPage, LegalSection, TextList } from './LegalPage';

/** /privacy-policy: collection, usage, protection, rights, cookies, contact (public-site §2). */
export default function PrivacyPage() {
  const { t } = useTranslation('public');
  const list = (key: string) => t(key, { returnObjects: true });
  return (
    <LegalPage title={t('privacy.title')} lead={t('privacy.lead')}>
      <LegalSection id="privacy-collection" title={t('privacy.collection.title')}>
        <TextList items={list('privacy.collection.items')} />
      </LegalSection>
      <LegalSection id="privacy-usage" title={t('privacy.usage.title')}>
        <TextList items={list('privacy.usage.items')} />
      </LegalSection>
      <LegalSection id="privacy-protection" title={t('privacy.protection.title')}>
        <TextList items={list('privacy.protection.items')} />
      </LegalSection>
      <LegalSection id="privacy-retention" title={t('privacy.retention.title')}>
        <TextList
          items={
            t('privacy.retention.items', {
              returnObjects: true,
              days: env.retentionDays,
            }) as unknown as string[]
          }
        />
      </LegalSection>
      <LegalSection id="privacy-rights" title={t('privacy.rights.title')}>
        <p>{t('privacy.rights.intro')}</p>
        <TextList items={list('privacy.rights.items')} />
        <p>{t('privacy.rights.complaint')}</p>
      </LegalSection>
      <LegalSection id="privacy-cookies" title={t('privacy.cookies.title')}>
        <TextList items={list('privacy.cookies.items')} />
      </LegalSection>
      <LegalSection id="privacy-contact" title={t('privacy.contact.title')}>
        <p>{t('privacy.contact.text')}</p>
        <p>
          <a
            href={`mailto:${env.privacyEmail}`}
            className="break-all font-medium text-blue-800 underline underline-offset-4"
          >
            {env.privacyEmail}
          </a>
        </p>
        <p>{t('privacy.contact.replyTime', { days: Limits.dataProtectionReplyDays })}</p>
      </LegalSection>
    </LegalPage>
  );
}

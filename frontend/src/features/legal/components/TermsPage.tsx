import { useTranslation } from 'react-i18next';
import { contactPhoneHref, env } from '../../../config/env';
import { LegalPage, LegalSection, TextList } from './LegalPage';

/** /terms-and-delivery: rules, eligibility, delivery, responsibilities, contact (public-site §2). */
export default function TermsPage() {
  const { t } = useTranslation('public');
  const list = (key: string) => t(key, { returnObjects: true });
  return (
    <LegalPage title={t('terms.title')} lead={t('terms.lead')}>
      <LegalSection id="terms-general" title={t('terms.general.title')}>
        <TextList items={list('terms.general.items')} />
      </LegalSection>
      <LegalSection id="terms-eligibility" title={t('terms.eligibility.title')}>
        <TextList
          title={t('terms.eligibility.requirementsTitle')}
          items={list('terms.eligibility.requirements')}
        />
        <TextList
          title={t('terms.eligibility.documentsTitle')}
          items={list('terms.eligibility.documents')}
        />
      </LegalSection>
      <LegalSection id="terms-delivery" title={t('terms.delivery.title')}>
        <TextList title={t('terms.delivery.pickupTitle')} items={list('terms.delivery.pickup')} />
        <TextList
          title={t('terms.delivery.volunteerTitle')}
          items={list('terms.delivery.volunteer')}
        />
      </LegalSection>
      <LegalSection id="terms-responsibilities" title={t('terms.responsibilities.title')}>
        <TextList
          title={t('terms.responsibilities.platformTitle')}
          items={list('terms.responsibilities.platform')}
        />
        <TextList
          title={t('terms.responsibilities.recipientTitle')}
          items={list('terms.responsibilities.recipient')}
        />
      </LegalSection>
      <LegalSection id="terms-contact" title={t('terms.contact.title')}>
        <p>{t('terms.contact.text')}</p>
        <dl className="grid gap-2 sm:grid-cols-[auto_1fr] sm:gap-x-6">
          <dt className="font-medium">{t('terms.contact.email')}</dt>
          <dd>
            <a
              href={`mailto:${env.contactEmail}`}
              className="break-all text-blue-800 underline underline-offset-4"
            >
              {env.contactEmail}
            </a>
          </dd>
          <dt className="font-medium">{t('terms.contact.phone')}</dt>
          <dd>
            <a href={contactPhoneHref} className="text-blue-800 underline underline-offset-4">
              {env.contactPhone}
            </a>
          </dd>
          <dt className="font-medium">{t('terms.contact.hours')}</dt>
          <dd>{t('common:footer.officeHours')}</dd>
        </dl>
      </LegalSection>
    </LegalPage>
  );
}

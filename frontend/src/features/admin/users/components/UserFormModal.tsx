import { useEffect, useMemo, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { CheckCircle2 } from 'lucide-react';
import { Roles, StaffRoles, type Role } from '@furniture/contracts/enums';
import { Limits } from '@furniture/contracts/limits';
import { Modal } from '../../../../components/Modal';
import { SelectField, TextField } from '../../../../components/TextField';
import { errorText, serverFieldErrors } from '../../lib/errors';
import { DraftNotice, useFormDraft } from '../../lib/form-draft';
import type { StaffUser } from '../../session';
import { useGetAgenciesQuery } from '../../partners';
import { DialogActions } from '../../ui/DialogActions';
import { ErrorBox } from '../../ui/PageHeader';
import { PasswordStrength } from '../../ui/PasswordStrength';
import { useCreateUserMutation, useUpdateUserMutation } from '../api/users-api';
import { validateUserForm, type UserFormErrors, type UserFormValues } from '../user-form';

const PASSWORD_FIELDS = ['password', 'confirm'] as const;

/**
 * Add or edit a staff member. After a successful save the dialog says so and closes after
 * 1.5 s (back-office §2 Users page).
 */
export function UserFormModal({ user, onClose }: { user: StaffUser | null; onClose: () => void }) {
  const { t } = useTranslation('admin');
  const mode = user ? 'edit' : 'create';
  const initial = useMemo<UserFormValues>(
    () => ({
      name: user?.name ?? '',
      email: user?.email ?? '',
      role: user?.role ?? 'volunteer',
      password: '',
      confirm: '',
      agencyId: user?.agency_id ? String(user.agency_id) : '',
    }),
    [user],
  );
  // a referrer is made with its agency (issue 44) and stays one: its role is not changed here,
  // nor does a staff member become a referrer without an agency
  const roles: readonly Role[] = !user
    ? Roles
    : user.role === 'referrer'
      ? ['referrer']
      : StaffRoles;
  const [values, setValues] = useState<UserFormValues>(initial);
  // passwords never go into a draft
  const draft = useFormDraft({
    name: user ? `user:${user.id}` : 'user:new',
    values,
    initial,
    restore: setValues,
    omit: PASSWORD_FIELDS,
  });
  const [errors, setErrors] = useState<UserFormErrors>({});
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const [create, creating] = useCreateUserMutation();
  const [update, updating] = useUpdateUserMutation();
  const busy = creating.isLoading || updating.isLoading;
  const referrer = mode === 'create' && values.role === 'referrer';
  const agencies = useGetAgenciesQuery(undefined, { skip: !referrer });

  useEffect(() => {
    if (!saved) return;
    const timer = setTimeout(onClose, Limits.userFormSuccessCloseMs);
    return () => clearTimeout(timer);
  }, [saved, onClose]);

  const set = (field: keyof UserFormValues) => (value: string) => {
    setValues((v) => ({ ...v, [field]: value }));
    setErrors((e) => ({ ...e, [field]: undefined }));
  };

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    if (busy || saved) return;
    const found = validateUserForm(values, mode);
    setErrors(found);
    setServerErrors({});
    setFailure(null);
    if (Object.keys(found).length > 0) return;
    const body = {
      name: values.name.trim(),
      email: values.email.trim(),
      role: values.role as Role,
      ...(values.password ? { password: values.password } : {}),
    };
    try {
      if (user) await update({ id: user.id, body }).unwrap();
      else
        await create({
          ...body,
          password: values.password,
          ...(referrer ? { agency_id: Number(values.agencyId) } : {}),
        }).unwrap();
      draft.clear();
      setSaved(true);
    } catch (error) {
      setServerErrors(serverFieldErrors(error));
      setFailure(
        errorText(error, t(mode === 'edit' ? 'users.updateFailed' : 'users.createFailed')),
      );
    }
  };

  const fieldError = (field: keyof UserFormValues) =>
    errors[field]
      ? t(`validation.${errors[field]}`)
      : serverErrors[field === 'agencyId' ? 'agency_id' : field];

  return (
    <Modal
      open
      onClose={busy ? () => undefined : onClose}
      title={t(mode === 'edit' ? 'users.editTitle' : 'users.addTitle')}
    >
      <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4">
        {saved && (
          <p
            role="status"
            className="flex items-center gap-2 rounded-lg border border-green-300 bg-green-50 p-3 font-medium text-green-900"
          >
            <CheckCircle2 aria-hidden="true" className="size-5" />
            {t(mode === 'edit' ? 'users.updated' : 'users.created')}
          </p>
        )}
        <DraftNotice draft={draft} />
        {failure && <ErrorBox>{failure}</ErrorBox>}
        <TextField
          label={t('users.name')}
          required
          value={values.name}
          onChange={(e) => set('name')(e.target.value)}
          error={fieldError('name')}
        />
        <TextField
          label={t('users.email')}
          required
          type="email"
          value={values.email}
          onChange={(e) => set('email')(e.target.value)}
          error={fieldError('email')}
        />
        <SelectField
          label={t('users.role')}
          required
          value={values.role}
          onChange={(e) => set('role')(e.target.value)}
          error={fieldError('role')}
        >
          {roles.map((role) => (
            <option key={role} value={role}>
              {t(`roles.${role}`)}
            </option>
          ))}
        </SelectField>
        {referrer && (
          <SelectField
            label={t('users.agency')}
            hint={t('users.agencyHint')}
            required
            value={values.agencyId}
            onChange={(e) => set('agencyId')(e.target.value)}
            error={fieldError('agencyId')}
          >
            <option value="">{t('users.chooseAgency')}</option>
            {(agencies.data ?? [])
              .filter((a) => a.active)
              .map((a) => (
                <option key={a.id} value={a.id}>
                  {a.name}
                </option>
              ))}
          </SelectField>
        )}
        <div>
          <TextField
            label={t('users.password')}
            required={mode === 'create'}
            type="password"
            autoComplete="new-password"
            value={values.password}
            onChange={(e) => set('password')(e.target.value)}
            error={fieldError('password')}
            hint={mode === 'edit' ? t('users.passwordKeep') : undefined}
          />
          <PasswordStrength password={values.password} userInputs={[values.name, values.email]} />
        </div>
        {mode === 'create' && (
          <TextField
            label={t('users.confirm')}
            required
            type="password"
            autoComplete="new-password"
            value={values.confirm}
            onChange={(e) => set('confirm')(e.target.value)}
            error={fieldError('confirm')}
          />
        )}
        <DialogActions
          className="mt-2"
          onCancel={onClose}
          busy={busy}
          disabled={saved}
          label={t('ui.save')}
        />
      </form>
    </Modal>
  );
}

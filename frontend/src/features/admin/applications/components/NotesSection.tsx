import { useCallback, useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ChevronDown, MessageSquare } from 'lucide-react';
import { Limits } from '@furniture/contracts/limits';
import { errorText } from '../../lib/errors';
import { DraftNotice, useFormDraft } from '../../lib/form-draft';
import { useSession } from '../../session';
import { useToast } from '../../ui/Toasts';
import { useAddApplicationNoteMutation, type Application } from '../api/applications-api';
import { noteLine, parseNotes } from '../lib/notes';

const EMPTY_NOTE = { text: '' };

/** The internal notes of an application, newest first, and the form to add one (back-office §2). */
export function NotesSection({ application }: { application: Application }) {
  const { t } = useTranslation('admin');
  const toast = useToast();
  const { user } = useSession();
  const id = useId();
  const [open, setOpen] = useState(false);
  const [text, setText] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [add, { isLoading }] = useAddApplicationNoteMutation();
  const notes = parseNotes(application.internal_notes);
  // a note being typed outlives an ended session: the section opens with it again
  const restore = useCallback((v: { text: string }) => {
    setText(v.text);
    setOpen(true);
  }, []);
  const draft = useFormDraft({
    name: `note:application:${application.id}`,
    values: { text },
    initial: EMPTY_NOTE,
    restore,
  });

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    if (isLoading) return;
    const comment = text.trim();
    if (!comment) return setProblem(t('validation.noteEmpty'));
    if (comment.length > Limits.notesMax) return setProblem(t('validation.noteTooLong'));
    setProblem(null);
    try {
      const line = noteLine({
        now: new Date(),
        role: user?.role ?? '',
        email: user?.email ?? '',
        action: 'NOTE_ADD',
        comment,
      });
      await add({ id: application.id, line }).unwrap();
      setText('');
      toast('success', t('applications.noteAdded'));
    } catch (error) {
      setProblem(`${t('applications.noteFailed')}: ${errorText(error, t('ui.unexpected'))}`);
    }
  };

  return (
    <div className="border-t border-slate-200 pt-2">
      <button
        type="button"
        aria-expanded={open}
        aria-controls={`${id}-notes`}
        onClick={() => setOpen((o) => !o)}
        className="flex min-h-10 w-full items-center gap-2 rounded-md px-1 text-left font-medium text-slate-800 hover:bg-slate-50"
      >
        <MessageSquare aria-hidden="true" className="size-4" />
        {t('applications.notesTitle', { n: notes.length })}
        <ChevronDown
          aria-hidden="true"
          className={`ml-auto size-4 transition-transform ${open ? 'rotate-180' : ''}`}
        />
      </button>
      {open && (
        <div id={`${id}-notes`} className="mt-2 flex flex-col gap-3">
          {notes.length === 0 ? (
            <p className="text-sm text-slate-600">{t('applications.noNotes')}</p>
          ) : (
            <ol className="flex flex-col gap-2">
              {notes.map((note, i) => (
                <li key={`${note.timestamp}-${i}`} className="rounded-lg bg-slate-50 p-2 text-sm">
                  <div className="flex flex-wrap gap-x-2 text-slate-600">
                    <span className="font-medium text-slate-800">{note.timestamp}</span>
                    {note.email && (
                      <span>
                        {note.role === 'system'
                          ? t('applications.system')
                          : `${t(`roles.${note.role}`, { defaultValue: note.role })}: ${note.email}`}
                      </span>
                    )}
                    {note.action && (
                      <span className="rounded bg-white px-1.5 font-semibold text-slate-700 ring-1 ring-slate-200">
                        {t(`applications.noteActions.${note.action}`, {
                          defaultValue: note.action,
                        })}
                      </span>
                    )}
                  </div>
                  {note.comment && (
                    <p className="mt-1 whitespace-pre-line text-slate-900">{note.comment}</p>
                  )}
                </li>
              ))}
            </ol>
          )}
          <form onSubmit={onSubmit} noValidate className="flex flex-col gap-2">
            <DraftNotice draft={draft} />
            <label htmlFor={`${id}-new`} className="text-sm font-medium text-slate-900">
              {t('applications.addNote')}
            </label>
            <textarea
              id={`${id}-new`}
              className="field-input min-h-20"
              rows={2}
              maxLength={Limits.notesMax}
              value={text}
              aria-invalid={problem ? true : undefined}
              onChange={(e) => {
                setText(e.target.value);
                setProblem(null);
              }}
            />
            <div className="flex items-center justify-between gap-2 text-sm">
              <span role={problem ? 'alert' : undefined} className="font-medium text-red-800">
                {problem}
              </span>
              <span className="shrink-0 text-slate-600">
                {t('applications.noteCounter', { n: text.length, max: Limits.notesMax })}
              </span>
            </div>
            <div>
              <button type="submit" className="btn-secondary min-h-10" disabled={isLoading}>
                {t('applications.saveNote')}
              </button>
            </div>
          </form>
        </div>
      )}
    </div>
  );
}

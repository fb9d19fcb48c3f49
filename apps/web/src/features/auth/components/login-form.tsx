import { useRef, useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router-dom';
import { Alert, Button, Stack } from '@mui/material';
import { LoginInput } from '@gradewise/shared/contracts/auth';
import { LightTextField } from '../../../components/light-text-field.tsx';
import { messageOf } from '../../../lib/api-client.ts';
import { forgetDemoSeen } from '../../../lib/browser-storage.ts';
import { RETURN_PATH_PARAM, safeReturnPath } from '../../../lib/return-path.ts';
import { useSession } from '../../../lib/session.tsx';
import { showError } from '../../../lib/toasts.tsx';
import { REDIRECT_AFTER_AUTH_MS, useRedirectAfter } from './use-redirect-after.ts';

export const LOGIN_SUCCESS_MESSAGE = 'Login successful! Redirecting…';
export const LOGIN_FAILED_MESSAGE = 'Login failed.';

const EMPTY_LOGIN = { email: '', password: '' } satisfies LoginInput;
type LoginField = keyof typeof EMPTY_LOGIN;
type FieldErrors = Partial<Record<LoginField, string>>;

/** The first message the contract gives each field, or the parsed credentials (trimmed, lower-cased email). */
function checkLogin(values: LoginInput): { credentials: LoginInput; errors?: never } | { errors: FieldErrors } {
  const result = LoginInput.safeParse(values);
  if (result.success) return { credentials: result.data };
  const errors: FieldErrors = {};
  for (const issue of result.error.issues) {
    const field = issue.path[0];
    if ((field === 'email' || field === 'password') && !errors[field]) errors[field] = issue.message;
  }
  return { errors };
}

/**
 * Spec section 4: on success the demo flag is cleared, the form empties, and /courses follows (or
 * the page the person was going to when they were asked to log in, see lib/return-path.ts).
 *
 * Two fields, checked with the shared contract by hand rather than with react-hook-form, which
 * would add 16 KB gzip to the first page of everyone who logs in (decision 0039). As before: the
 * fields are checked on submit, then on every edit; the first field in error gets the focus.
 */
export function LoginForm() {
  const { login } = useSession();
  const redirectTo = useRedirectAfter(REDIRECT_AFTER_AUTH_MS);
  // A signed-out link to a private screen (the nav's Assignments) brings its path along.
  const [search] = useSearchParams();
  const [successMessage, setSuccessMessage] = useState<string | null>(null);
  const [values, setValues] = useState<LoginInput>(EMPTY_LOGIN);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [hasTriedSubmit, setHasTriedSubmit] = useState(false);
  const [isSubmitting, setSubmitting] = useState(false);
  const emailRef = useRef<HTMLInputElement>(null);
  const passwordRef = useRef<HTMLInputElement>(null);

  const edit = (field: LoginField, value: string) => {
    const next = { ...values, [field]: value };
    setValues(next);
    setSuccessMessage(null);
    if (hasTriedSubmit) setErrors(checkLogin(next).errors ?? {});
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (isSubmitting) return;
    setHasTriedSubmit(true);
    const checked = checkLogin(values);
    setErrors(checked.errors ?? {});
    if (checked.errors) {
      (checked.errors.email ? emailRef : passwordRef).current?.focus();
      return;
    }
    setSubmitting(true);
    try {
      await login(checked.credentials);
    } catch (error) {
      showError(messageOf(error, LOGIN_FAILED_MESSAGE), error);
      return;
    } finally {
      setSubmitting(false);
    }
    forgetDemoSeen();
    setSuccessMessage(LOGIN_SUCCESS_MESSAGE);
    setValues(EMPTY_LOGIN);
    setHasTriedSubmit(false);
    redirectTo(safeReturnPath(search.get(RETURN_PATH_PARAM)) ?? '/courses');
  };

  return (
    <Stack component="form" noValidate onSubmit={onSubmit} spacing={2} aria-label="Login">
      {successMessage ? <Alert severity="success">{successMessage}</Alert> : null}
      <LightTextField
        name="email"
        label="Email"
        type="email"
        autoComplete="email"
        required
        value={values.email}
        onChange={(event) => edit('email', event.target.value)}
        inputRef={emailRef}
        error={Boolean(errors.email)}
        helperText={errors.email}
      />
      <LightTextField
        name="password"
        label="Password"
        type="password"
        autoComplete="current-password"
        required
        value={values.password}
        onChange={(event) => edit('password', event.target.value)}
        inputRef={passwordRef}
        error={Boolean(errors.password)}
        helperText={errors.password}
      />
      <Button type="submit" variant="contained" size="large" disabled={isSubmitting}>
        {isSubmitting ? 'Logging in…' : 'Login'}
      </Button>
    </Stack>
  );
}

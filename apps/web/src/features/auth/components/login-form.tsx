import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useSearchParams } from 'react-router-dom';
import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Stack } from '@mui/material';
import { LoginInput } from '@gradewise/shared/contracts/auth';
import { FormTextField } from '../../../components/form-text-field.tsx';
import { messageOf } from '../../../lib/api-client.ts';
import { forgetDemoSeen } from '../../../lib/browser-storage.ts';
import { RETURN_PATH_PARAM, safeReturnPath } from '../../../lib/return-path.ts';
import { useSession } from '../../../lib/session.tsx';
import { showError } from '../../../lib/toasts.tsx';
import { REDIRECT_AFTER_AUTH_MS, useRedirectAfter } from './use-redirect-after.ts';

export const LOGIN_SUCCESS_MESSAGE = 'Login successful! Redirecting…';
export const LOGIN_FAILED_MESSAGE = 'Login failed.';

const EMPTY_LOGIN: LoginInput = { email: '', password: '' };

/**
 * Spec section 4: on success the demo flag is cleared, the form empties, and /courses follows (or
 * the page the person was going to when they were asked to log in, see lib/return-path.ts).
 */
export function LoginForm() {
  const { login } = useSession();
  const redirectTo = useRedirectAfter(REDIRECT_AFTER_AUTH_MS);
  // A signed-out link to a private screen (the nav's Assignments) brings its path along.
  const [search] = useSearchParams();
  const [successMessage, setSuccessMessage] = useState<string | null>(null);
  const { control, handleSubmit, reset, formState } = useForm({
    resolver: zodResolver(LoginInput),
    defaultValues: EMPTY_LOGIN,
  });
  const clearSuccess = () => setSuccessMessage(null);

  const onSubmit = handleSubmit(async (credentials) => {
    try {
      await login(credentials);
    } catch (error) {
      showError(messageOf(error, LOGIN_FAILED_MESSAGE), error);
      return;
    }
    forgetDemoSeen();
    setSuccessMessage(LOGIN_SUCCESS_MESSAGE);
    reset(EMPTY_LOGIN);
    redirectTo(safeReturnPath(search.get(RETURN_PATH_PARAM)) ?? '/courses');
  });

  return (
    <Stack component="form" noValidate onSubmit={onSubmit} spacing={2} aria-label="Login">
      {successMessage ? <Alert severity="success">{successMessage}</Alert> : null}
      <FormTextField
        control={control}
        name="email"
        label="Email"
        type="email"
        autoComplete="email"
        required
        fullWidth
        onEdit={clearSuccess}
      />
      <FormTextField
        control={control}
        name="password"
        label="Password"
        type="password"
        autoComplete="current-password"
        required
        fullWidth
        onEdit={clearSuccess}
      />
      <Button type="submit" variant="contained" size="large" disabled={formState.isSubmitting}>
        {formState.isSubmitting ? 'Logging in…' : 'Login'}
      </Button>
    </Stack>
  );
}

import { useId, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import {
  Alert,
  Button,
  FormControl,
  FormControlLabel,
  FormHelperText,
  FormLabel,
  Radio,
  RadioGroup,
  Stack,
} from '@mui/material';
import { PASSWORD_MIN_LENGTH, RegisterInput } from '@gradewise/shared/contracts/auth';
import { FormTextField } from '../../../components/form-text-field.tsx';
import { messageOf } from '../../../lib/api-client.ts';
import { useSession } from '../../../lib/session.tsx';
import { showError } from '../../../lib/toasts.tsx';
import { REDIRECT_AFTER_AUTH_MS, useRedirectAfter } from './use-redirect-after.ts';

export const REGISTER_SUCCESS_MESSAGE = 'Registration successful! Redirecting to login…';
export const REGISTER_FAILED_MESSAGE = 'Registration failed.';

const EMPTY_REGISTRATION = { name: '', email: '', password: '', role: 'student' } satisfies RegisterInput;

/** Spec section 4: on success the form empties (role back to student) and /login follows. */
export function RegisterForm() {
  const { register } = useSession();
  const redirectTo = useRedirectAfter(REDIRECT_AFTER_AUTH_MS);
  const roleLabelId = useId();
  const [successMessage, setSuccessMessage] = useState<string | null>(null);
  const { control, handleSubmit, reset, formState } = useForm({
    resolver: zodResolver(RegisterInput),
    defaultValues: EMPTY_REGISTRATION,
  });
  const clearSuccess = () => setSuccessMessage(null);

  const onSubmit = handleSubmit(async (registration) => {
    let result;
    try {
      result = await register(registration);
    } catch (error) {
      showError(messageOf(error, REGISTER_FAILED_MESSAGE), error);
      return;
    }
    if ('verificationSent' in result) {
      // Email delivery on: the account is made when the emailed link is opened; stay here and say so.
      setSuccessMessage(result.message);
      reset(EMPTY_REGISTRATION);
      return;
    }
    setSuccessMessage(REGISTER_SUCCESS_MESSAGE);
    reset(EMPTY_REGISTRATION);
    redirectTo('/login');
  });

  return (
    <Stack component="form" noValidate onSubmit={onSubmit} spacing={2} aria-label="Register">
      {successMessage ? <Alert severity="success">{successMessage}</Alert> : null}
      <FormTextField
        control={control}
        name="name"
        label="Name"
        autoComplete="name"
        required
        fullWidth
        onEdit={clearSuccess}
      />
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
        autoComplete="new-password"
        required
        fullWidth
        helperText={`At least ${PASSWORD_MIN_LENGTH} characters.`}
        onEdit={clearSuccess}
      />
      <Controller
        control={control}
        name="role"
        render={({ field, fieldState }) => (
          <FormControl error={Boolean(fieldState.error)} required>
            <FormLabel id={roleLabelId}>I am a</FormLabel>
            <RadioGroup
              row
              aria-labelledby={roleLabelId}
              name={field.name}
              value={field.value ?? 'student'}
              onChange={(event) => {
                field.onChange(event.target.value);
                clearSuccess();
              }}
              onBlur={field.onBlur}
            >
              <FormControlLabel value="student" control={<Radio inputRef={field.ref} />} label="Student" />
              <FormControlLabel value="instructor" control={<Radio />} label="Instructor" />
            </RadioGroup>
            {fieldState.error ? <FormHelperText>{fieldState.error.message}</FormHelperText> : null}
          </FormControl>
        )}
      />
      <Button type="submit" variant="contained" size="large" disabled={formState.isSubmitting}>
        {formState.isSubmitting ? 'Registering…' : 'Register'}
      </Button>
    </Stack>
  );
}

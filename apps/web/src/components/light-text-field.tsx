import { useId, type ChangeEvent, type Ref } from 'react';
import { FormHelperText, FormLabel, Stack } from '@mui/material';
import { styled } from '@mui/material/styles';

export interface LightTextFieldProps {
  name: string;
  label: string;
  value: string;
  onChange: (event: ChangeEvent<HTMLInputElement>) => void;
  type?: string;
  autoComplete?: string;
  required?: boolean;
  error?: boolean;
  helperText?: string;
  inputRef?: Ref<HTMLInputElement>;
}

/**
 * A labelled text input for the login page: a label above a plain <input> drawn like MUI's
 * outlined field, and the field's message below. MUI's TextField is about 8 KB gzip of input
 * machinery (InputBase, TextareaAutosize, the floating label's notched outline) on top of the
 * first page of everyone who logs in, which the 200 KB goal cannot afford (decision 0039); other
 * forms keep TextField.
 */
export function LightTextField({ label, helperText, required, error, inputRef, ...inputProps }: LightTextFieldProps) {
  const id = useId();
  const helperTextId = helperText ? `${id}-helper-text` : undefined;
  return (
    <Stack spacing={0.75}>
      <FormLabel htmlFor={id} required={required} error={error}>
        {label}
      </FormLabel>
      <Input
        {...inputProps}
        id={id}
        ref={inputRef}
        required={required}
        aria-invalid={error ? true : undefined}
        aria-describedby={helperTextId}
      />
      {helperText ? (
        <FormHelperText id={helperTextId} error={error} sx={{ mt: 0 }}>
          {helperText}
        </FormHelperText>
      ) : null}
    </Stack>
  );
}

/** The outlined field's look: its border, radius, padding and focus ring, from the theme. */
const Input = styled('input')(({ theme }) => ({
  ...theme.typography.body1,
  color: theme.palette.text.primary,
  background: 'none',
  boxSizing: 'border-box',
  width: '100%',
  margin: 0,
  padding: '16.5px 14px',
  borderRadius: theme.shape.borderRadius,
  border: `1px solid ${theme.palette.mode === 'dark' ? 'rgba(255, 255, 255, 0.23)' : 'rgba(0, 0, 0, 0.23)'}`,
  outline: 'none',
  '&:hover': { borderColor: theme.palette.text.primary },
  '&:focus': { borderColor: theme.palette.primary.main, boxShadow: `inset 0 0 0 1px ${theme.palette.primary.main}` },
  '&[aria-invalid="true"]': { borderColor: theme.palette.error.main },
  '&[aria-invalid="true"]:focus': { boxShadow: `inset 0 0 0 1px ${theme.palette.error.main}` },
}));

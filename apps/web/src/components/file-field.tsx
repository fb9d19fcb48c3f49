import { useEffect, useId, useRef, type RefObject } from 'react';
import { Controller, type Control, type FieldValues, type Path } from 'react-hook-form';
import { Box, Button, FormHelperText, IconButton, Tooltip, Typography } from '@mui/material';
import CloseIcon from '@mui/icons-material/Close';
import UploadFileIcon from '@mui/icons-material/UploadFile';
import { visuallyHidden } from './visually-hidden.ts';

export interface FileFieldProps<T extends FieldValues> {
  // The form's context and transformed values (a zod resolver's output) do not matter to one field.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  control: Control<T, any, any>;
  name: Path<T>;
  label: string;
  /** The `accept` attribute: a hint for the picker; the server checks the content anyway. */
  accept: string;
  required?: boolean;
  helperText?: string;
  disabled?: boolean;
  /** Text of the visible picker button. */
  chooseText?: string;
}

/**
 * A file picker bound to react-hook-form (the value is a File or undefined). The real
 * `<input type="file">` stays in the tab order, visually hidden, so keyboards and screen readers
 * reach it under the field's label; the button beside it is only its visible face.
 */
export function FileField<T extends FieldValues>({
  control,
  name,
  label,
  accept,
  required = false,
  helperText,
  disabled,
  chooseText = 'Choose file',
}: FileFieldProps<T>) {
  const inputId = useId();
  const labelId = `${inputId}-label`;
  const helperId = `${inputId}-helper`;
  const fileNameId = `${inputId}-file`;
  const inputRef = useRef<HTMLInputElement | null>(null);

  return (
    <Controller
      control={control}
      name={name}
      render={({ field, fieldState }) => {
        const value: unknown = field.value;
        const file = value instanceof File ? value : undefined;
        const message = fieldState.error?.message ?? helperText;
        return (
          <Box>
            <Typography
              component="label"
              id={labelId}
              htmlFor={inputId}
              variant="body2"
              sx={{ display: 'block', mb: 0.75, color: fieldState.error ? 'error.main' : 'text.secondary' }}
            >
              {label}
              {required ? ' *' : ' (optional)'}
            </Typography>
            <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, flexWrap: 'wrap' }}>
              <ClearWhenEmpty inputRef={inputRef} hasFile={Boolean(file)} />
              <input
                id={inputId}
                ref={(element) => {
                  inputRef.current = element;
                  field.ref(element);
                }}
                name={field.name}
                type="file"
                accept={accept}
                required={required}
                disabled={disabled}
                aria-labelledby={labelId}
                aria-describedby={`${fileNameId}${message ? ` ${helperId}` : ''}`}
                aria-invalid={fieldState.error ? true : undefined}
                style={visuallyHidden}
                onChange={(event) => {
                  field.onChange(event.target.files?.[0] ?? undefined);
                }}
                onBlur={field.onBlur}
              />
              {/* The input's visible face: clicking a <label> opens the picker; focus stays on the input. */}
              <Button
                component="label"
                htmlFor={inputId}
                variant="outlined"
                color={fieldState.error ? 'error' : 'primary'}
                startIcon={<UploadFileIcon />}
                tabIndex={-1}
                aria-hidden
                disabled={disabled}
                sx={{
                  'input:focus-visible + &': { outline: '2px solid', outlineColor: 'primary.main', outlineOffset: 2 },
                }}
              >
                {chooseText}
              </Button>
              <Typography
                id={fileNameId}
                variant="body2"
                color={file ? 'text.primary' : 'text.secondary'}
                sx={{ overflowWrap: 'anywhere', minWidth: 0 }}
              >
                {file ? file.name : 'No file chosen'}
              </Typography>
              {file && !required ? (
                <Tooltip title={`Remove ${label}`}>
                  <IconButton
                    size="small"
                    aria-label={`Remove ${label}`}
                    disabled={disabled}
                    onClick={() => field.onChange(undefined)}
                  >
                    <CloseIcon fontSize="small" />
                  </IconButton>
                </Tooltip>
              ) : null}
            </Box>
            {message ? (
              <FormHelperText id={helperId} error={Boolean(fieldState.error)}>
                {message}
              </FormHelperText>
            ) : null}
          </Box>
        );
      }}
    />
  );
}

/** When the form is reset (or the file removed), the native input must forget its file too. */
function ClearWhenEmpty({ inputRef, hasFile }: { inputRef: RefObject<HTMLInputElement | null>; hasFile: boolean }) {
  useEffect(() => {
    if (!hasFile && inputRef.current) inputRef.current.value = '';
  }, [hasFile, inputRef]);
  return null;
}

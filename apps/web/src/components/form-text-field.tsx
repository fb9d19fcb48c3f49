import { Controller, type Control, type FieldValues, type Path } from 'react-hook-form';
import { TextField, type TextFieldProps } from '@mui/material';

export type FormTextFieldProps<T extends FieldValues> = Omit<
  TextFieldProps,
  'name' | 'value' | 'onChange' | 'onBlur'
> & {
  // The form's context and transformed values (a zod resolver's output) do not matter to one field.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  control: Control<T, any, any>;
  name: Path<T>;
  /** Called after each edit made by the person (never by a programmatic reset). */
  onEdit?: () => void;
};

/** A labelled MUI text field bound to react-hook-form; shows the field's validation message. */
export function FormTextField<T extends FieldValues>({
  control,
  name,
  onEdit,
  helperText,
  ...props
}: FormTextFieldProps<T>) {
  return (
    <Controller
      control={control}
      name={name}
      render={({ field: { ref, value, onChange, onBlur, name: fieldName, disabled }, fieldState }) => (
        <TextField
          {...props}
          name={fieldName}
          inputRef={ref}
          value={value ?? ''}
          disabled={disabled ?? props.disabled}
          onBlur={onBlur}
          onChange={(event) => {
            onChange(event);
            onEdit?.();
          }}
          error={Boolean(fieldState.error)}
          helperText={fieldState.error?.message ?? helperText}
        />
      )}
    />
  );
}

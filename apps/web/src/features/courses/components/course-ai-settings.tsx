import { useId, useState, type FormEvent } from 'react';
import {
  Alert,
  Box,
  Button,
  FormControlLabel,
  InputAdornment,
  MenuItem,
  Paper,
  Stack,
  Switch,
  TextField,
  Typography,
} from '@mui/material';
import CloudOutlinedIcon from '@mui/icons-material/CloudOutlined';
import DnsOutlinedIcon from '@mui/icons-material/DnsOutlined';
import { formatMoney, type CourseAiSettings } from '@gradewise/shared/contracts/ai-cost';
import { ErrorMessage, LoadingMessage } from '../../../components/screen-states.tsx';
import { ApiError, messageOf } from '../../../lib/api-client.ts';
import { showInfo } from '../../../lib/toasts.tsx';
import { useCourseAiReader, useCourseAiSettings, useUpdateCourseAiSettings } from '../api/course-ai-api.ts';
import { ModelCheckSection } from './model-check-section.tsx';

/**
 * The course's AI (issue 31): which configured provider grades it, whether it is held to this
 * server, its monthly budget and the amount above which Grade All asks first. Staff read it; the
 * owner changes it. The server enforces every rule; this form only says what it will refuse.
 */
export function CourseAiSettingsSection({ courseId }: { courseId: string }) {
  const headingId = useId();
  const settings = useCourseAiSettings(courseId);
  return (
    <Paper component="section" variant="outlined" aria-labelledby={headingId} sx={{ p: { xs: 2, sm: 2.5 }, mt: 4 }}>
      <Typography id={headingId} variant="h5" component="h2" sx={{ mb: 1 }}>
        AI grading and cost
      </Typography>
      {settings.isPending ? (
        <LoadingMessage text="Loading the course's AI settings…" compact />
      ) : settings.isError ? (
        <ErrorMessage
          text={messageOf(settings.error, "The course's AI settings could not be loaded.")}
          action={
            <Button color="inherit" size="small" onClick={() => void settings.refetch()}>
              Retry
            </Button>
          }
        />
      ) : (
        // Saved or read again: the form starts from what the server holds now.
        <SettingsForm key={settings.dataUpdatedAt} courseId={courseId} settings={settings.data} />
      )}
      {settings.data ? (
        <ModelCheckSection
          courseId={courseId}
          providers={settings.data.providers}
          currentProviderId={settings.data.providerId}
          canEdit={settings.data.canEdit}
        />
      ) : null}
    </Paper>
  );
}

function SettingsForm({ courseId, settings }: { courseId: string; settings: CourseAiSettings }) {
  const update = useUpdateCourseAiSettings(courseId);
  const [providerId, setProviderId] = useState(settings.providerId);
  const [serverOnly, setServerOnly] = useState(settings.serverOnly);
  const [budget, setBudget] = useState(settings.monthlyBudget === null ? '' : String(settings.monthlyBudget));
  const [confirmAbove, setConfirmAbove] = useState(String(settings.confirmAbove));

  const chosen = settings.providers.find((provider) => provider.id === providerId);
  const heldButExternal = serverOnly && chosen?.location === 'external';
  const fieldError = (field: string) =>
    update.error instanceof ApiError ? update.error.issues.find((issue) => issue.path === field)?.message : undefined;
  const money = (amount: number) => formatMoney(amount, settings.currency);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    update.mutate(
      {
        providerId,
        serverOnly,
        // Sent as typed: the server says what is wrong with an amount, naming the field.
        monthlyBudget: budget.trim() === '' ? null : Number(budget),
        confirmAbove: Number(confirmAbove),
      },
      { onSuccess: () => showInfo("The course's AI settings are saved.") },
    );
  };

  return (
    <Box component="form" onSubmit={onSubmit} noValidate>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        Spent this month: <strong>{money(settings.spentThisMonth)}</strong>
        {settings.courseBudgetLeft !== null ? ` · ${money(settings.courseBudgetLeft)} left of the course budget` : ''}
        {settings.instructorBudgetLeft !== null
          ? ` · ${money(settings.instructorBudgetLeft)} left of your monthly budget`
          : ''}
        .
      </Typography>
      <Stack spacing={2} sx={{ maxWidth: 560 }}>
        <TextField
          select
          label="Grades with"
          value={providerId}
          onChange={(event) => setProviderId(event.target.value)}
          disabled={!settings.canEdit}
          error={Boolean(fieldError('providerId')) || heldButExternal}
          helperText={
            fieldError('providerId') ??
            (heldButExternal
              ? 'This provider is an external service: pick one on this server, or turn "on this server only" off.'
              : chosen
                ? `${chosen.location === 'on-server' ? 'On this server' : 'An external service'} · ${money(chosen.inputPricePerMillion)} / ${money(chosen.outputPricePerMillion)} per million input / output tokens`
                : undefined)
          }
        >
          {settings.providers.map((provider) => (
            <MenuItem key={provider.id} value={provider.id}>
              {provider.label}
              {provider.location === 'external' ? ' · external service' : ' · on this server'}
            </MenuItem>
          ))}
        </TextField>
        <FormControlLabel
          control={
            <Switch
              checked={serverOnly}
              onChange={(event) => setServerOnly(event.target.checked)}
              disabled={!settings.canEdit}
            />
          }
          label="On this server only: refuse every AI call to an external service"
        />
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
          <TextField
            label="Monthly budget"
            value={budget}
            onChange={(event) => setBudget(event.target.value)}
            disabled={!settings.canEdit}
            inputMode="decimal"
            placeholder="No budget"
            error={Boolean(fieldError('monthlyBudget'))}
            helperText={fieldError('monthlyBudget') ?? 'Empty: no budget. Work that does not fit is not queued.'}
            slotProps={{
              input: { startAdornment: <InputAdornment position="start">{settings.currency}</InputAdornment> },
            }}
          />
          <TextField
            label="Ask before spending more than"
            value={confirmAbove}
            onChange={(event) => setConfirmAbove(event.target.value)}
            disabled={!settings.canEdit}
            inputMode="decimal"
            error={Boolean(fieldError('confirmAbove'))}
            helperText={
              fieldError('confirmAbove') ?? 'Grade All and re-suggest show their estimate and ask above this.'
            }
            slotProps={{
              input: { startAdornment: <InputAdornment position="start">{settings.currency}</InputAdornment> },
            }}
          />
        </Stack>
        {update.isError ? (
          <Alert severity="error">{messageOf(update.error, 'The settings could not be saved.')}</Alert>
        ) : null}
        {settings.canEdit ? (
          <Box>
            <Button type="submit" variant="contained" disabled={update.isPending} aria-busy={update.isPending}>
              {update.isPending ? 'Saving…' : 'Save AI settings'}
            </Button>
          </Box>
        ) : (
          <Typography variant="body2" color="text.secondary">
            Only the course owner changes these.
          </Typography>
        )}
      </Stack>
    </Box>
  );
}

/** For students: who reads their answers, and that their names are not sent. */
export function CourseAiReaderNotice({ courseId }: { courseId: string }) {
  const reader = useCourseAiReader(courseId);
  if (reader.isPending) return <LoadingMessage text="Loading how answers are graded…" compact />;
  if (reader.isError)
    return <ErrorMessage text={messageOf(reader.error, 'How answers are graded could not be loaded.')} />;
  const onServer = reader.data.location === 'on-server';
  return (
    <Alert severity="info" icon={onServer ? <DnsOutlinedIcon /> : <CloudOutlinedIcon />} sx={{ mt: 4 }}>
      {onServer
        ? 'Your answers are read by an AI grader on this school server; they are not sent to an outside service.'
        : 'Your answers are read by an external AI service to suggest grades, which your instructor reviews.'}{' '}
      Your name and email are never sent with them.
    </Alert>
  );
}

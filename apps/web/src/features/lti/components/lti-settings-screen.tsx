import { useState, type FormEvent } from 'react';
import {
  Alert,
  Box,
  Button,
  Container,
  IconButton,
  InputAdornment,
  List,
  ListItem,
  ListItemText,
  Paper,
  Stack,
  TextField,
  Tooltip,
  Typography,
} from '@mui/material';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import type { RegisterPlatformInput } from '@gradewise/shared/contracts/lti';
import { PageHeader } from '../../../components/page-header.tsx';
import { EmptyMessage, ErrorMessage, LoadFailedMessage, LoadingMessage } from '../../../components/screen-states.tsx';
import { messageOf } from '../../../lib/api-client.ts';
import { useSession } from '../../../lib/session.tsx';
import { showSuccess } from '../../../lib/toasts.tsx';
import { useDocumentTitle } from '../../../lib/use-document-title.ts';
import {
  LTI_MESSAGES,
  usePlatforms,
  useRegisterPlatform,
  useRemovePlatform,
  useRotateKey,
  useToolConfig,
} from '../api/lti-api.ts';

/**
 * Connect an LMS (LTI 1.3, decision 0074): the addresses an LMS administrator pastes, the form that
 * registers the LMS's side, the instructor's registrations, and the tool's signing key.
 */
export function LtiSettingsScreen() {
  useDocumentTitle('Connect your LMS');
  const { user } = useSession();
  return (
    <Container maxWidth="md" sx={{ py: { xs: 3, md: 5 } }}>
      <PageHeader
        back={{ to: '/account', label: 'Account' }}
        title="Connect your LMS"
        subtitle="Add Gradewise to Canvas, Moodle, Blackboard or Brightspace with LTI 1.3."
      />
      {user?.role === 'instructor' ? (
        <Stack spacing={3}>
          <ToolAddresses />
          <Registrations />
          <RegisterForm />
        </Stack>
      ) : (
        <ErrorMessage text="Only instructors can connect an LMS." />
      )}
    </Container>
  );
}

function CopyField({ label, value }: { label: string; value: string }) {
  const copy = () => {
    void navigator.clipboard?.writeText(value).then(() => showSuccess(`${label} copied.`));
  };
  return (
    <TextField
      label={label}
      value={value}
      fullWidth
      slotProps={{
        input: {
          readOnly: true,
          endAdornment: (
            <InputAdornment position="end">
              <Tooltip title={`Copy ${label.toLowerCase()}`}>
                <IconButton aria-label={`Copy ${label.toLowerCase()}`} onClick={copy} edge="end">
                  <ContentCopyIcon fontSize="small" />
                </IconButton>
              </Tooltip>
            </InputAdornment>
          ),
        },
      }}
    />
  );
}

function ToolAddresses() {
  const tool = useToolConfig();
  const rotate = useRotateKey();
  return (
    <Paper variant="outlined" component="section" aria-labelledby="lti-tool-heading" sx={{ p: { xs: 2, sm: 3 } }}>
      <Typography id="lti-tool-heading" variant="h6" component="h2" gutterBottom>
        Addresses for your LMS administrator
      </Typography>
      {tool.isPending ? (
        <LoadingMessage text="Loading…" compact />
      ) : tool.isError ? (
        <LoadFailedMessage
          error={tool.error}
          notFoundText={LTI_MESSAGES.toolFailed}
          failedText={LTI_MESSAGES.toolFailed}
          onRetry={() => void tool.refetch()}
        />
      ) : (
        <Stack spacing={2}>
          <CopyField label="Login initiation URL" value={tool.data.loginUrl} />
          <CopyField label="Redirect (launch) URL" value={tool.data.launchUrl} />
          <CopyField label="Deep linking URL" value={tool.data.deepLinkingUrl} />
          <CopyField label="Gradewise keyset (JWKS) URL" value={tool.data.jwksUrl} />
          <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, alignItems: 'center' }}>
            <Typography variant="body2" color="text.secondary" sx={{ wordBreak: 'break-all' }}>
              Signing key in use: {tool.data.activeKeyId}
            </Typography>
            <Button
              variant="outlined"
              size="small"
              disabled={rotate.isPending}
              onClick={() => rotate.mutate(undefined, { onSuccess: (result) => showSuccess(result.message) })}
            >
              Rotate signing key
            </Button>
          </Box>
          {rotate.isError && (
            <Alert severity="error" role="alert">
              {messageOf(rotate.error, LTI_MESSAGES.rotateFailed)}
            </Alert>
          )}
        </Stack>
      )}
    </Paper>
  );
}

function Registrations() {
  const platforms = usePlatforms();
  const remove = useRemovePlatform();
  return (
    <Paper variant="outlined" component="section" aria-labelledby="lti-platforms-heading" sx={{ p: { xs: 2, sm: 3 } }}>
      <Typography id="lti-platforms-heading" variant="h6" component="h2" gutterBottom>
        Your registered LMSs
      </Typography>
      {platforms.isPending ? (
        <LoadingMessage text="Loading your registrations…" compact />
      ) : platforms.isError ? (
        <LoadFailedMessage
          error={platforms.error}
          notFoundText={LTI_MESSAGES.platformsFailed}
          failedText={LTI_MESSAGES.platformsFailed}
          onRetry={() => void platforms.refetch()}
        />
      ) : platforms.data.platforms.length === 0 ? (
        <EmptyMessage text="No LMS registered yet. Register yours below with what your LMS administrator gives you." />
      ) : (
        <List disablePadding>
          {platforms.data.platforms.map((platform) => (
            <ListItem
              key={platform._id}
              divider
              disableGutters
              sx={{ flexWrap: 'wrap', gap: 1 }}
              secondaryAction={
                <Button
                  color="error"
                  size="small"
                  disabled={remove.isPending}
                  aria-label={`Remove ${platform.name}`}
                  onClick={() => remove.mutate(platform._id, { onSuccess: (result) => showSuccess(result.message) })}
                >
                  Remove
                </Button>
              }
            >
              <ListItemText
                sx={{ pr: 10, wordBreak: 'break-all' }}
                primary={platform.name}
                secondary={`${platform.issuer} · client ${platform.clientId} · deployments ${platform.deploymentIds.join(', ')}`}
              />
            </ListItem>
          ))}
        </List>
      )}
      {remove.isError && (
        <Alert severity="error" role="alert">
          {messageOf(remove.error, LTI_MESSAGES.removeFailed)}
        </Alert>
      )}
    </Paper>
  );
}

const EMPTY_FORM = {
  name: '',
  issuer: '',
  clientId: '',
  deploymentIds: '',
  authLoginUrl: '',
  authTokenUrl: '',
  keysetUrl: '',
};

const FIELDS: Array<{ key: keyof typeof EMPTY_FORM; label: string; help: string }> = [
  { key: 'name', label: 'Name', help: 'For you, e.g. “University Canvas”.' },
  { key: 'issuer', label: 'Issuer', help: 'Canvas: https://canvas.instructure.com; Moodle: your Moodle address.' },
  { key: 'clientId', label: 'Client ID', help: 'Given by the LMS when the tool is added.' },
  { key: 'deploymentIds', label: 'Deployment IDs', help: 'One or more, separated by commas.' },
  { key: 'authLoginUrl', label: 'Authorization (OIDC auth) URL', help: 'The LMS’s authentication request URL.' },
  { key: 'authTokenUrl', label: 'Access token URL', help: 'The LMS’s OAuth 2 token URL.' },
  { key: 'keysetUrl', label: 'LMS keyset (JWKS) URL', help: 'Where the LMS publishes its keys.' },
];

function RegisterForm() {
  const register = useRegisterPlatform();
  const [form, setForm] = useState(EMPTY_FORM);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const input: RegisterPlatformInput = {
      ...form,
      deploymentIds: form.deploymentIds
        .split(',')
        .map((id) => id.trim())
        .filter(Boolean),
    };
    register.mutate(input, {
      onSuccess: (platform) => {
        showSuccess(`${platform.name} is registered.`);
        setForm(EMPTY_FORM);
      },
    });
  };
  return (
    <Paper
      variant="outlined"
      component="form"
      aria-labelledby="lti-register-heading"
      onSubmit={submit}
      sx={{ p: { xs: 2, sm: 3 } }}
    >
      <Typography id="lti-register-heading" variant="h6" component="h2" gutterBottom>
        Register an LMS
      </Typography>
      <Stack spacing={2}>
        {FIELDS.map((field) => (
          <TextField
            key={field.key}
            label={field.label}
            helperText={field.help}
            value={form[field.key]}
            onChange={(event) => setForm({ ...form, [field.key]: event.target.value })}
            required
            fullWidth
          />
        ))}
        {register.isError && (
          <Alert severity="error" role="alert">
            {messageOf(register.error, LTI_MESSAGES.registerFailed)}
          </Alert>
        )}
        <Button type="submit" variant="contained" disabled={register.isPending} sx={{ alignSelf: 'flex-start' }}>
          {register.isPending ? 'Registering…' : 'Register LMS'}
        </Button>
      </Stack>
    </Paper>
  );
}

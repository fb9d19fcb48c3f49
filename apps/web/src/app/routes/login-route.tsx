import { Link as RouterLink } from 'react-router-dom';
import { Link } from '@mui/material';
import { LoginForm } from '../../features/auth/components/login-form.tsx';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { AuthPageFrame } from '../../components/auth-page-frame.tsx';

export function LoginRoute() {
  useDocumentTitle('Login');
  return (
    <AuthPageFrame
      title="Login"
      footer={
        <>
          No account yet?{' '}
          <Link component={RouterLink} to="/register">
            Register
          </Link>
          {' · '}
          <Link component={RouterLink} to="/forgot-password">
            Forgot password?
          </Link>
        </>
      }
    >
      <LoginForm />
    </AuthPageFrame>
  );
}

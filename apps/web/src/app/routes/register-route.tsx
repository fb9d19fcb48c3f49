import { Link as RouterLink } from 'react-router-dom';
import { Link } from '@mui/material';
import { RegisterForm } from '../../features/auth/components/register-form.tsx';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { AuthPageFrame } from '../../components/auth-page-frame.tsx';

export function RegisterRoute() {
  useDocumentTitle('Register');
  return (
    <AuthPageFrame
      title="Register"
      footer={
        <>
          Already have an account?{' '}
          <Link component={RouterLink} to="/login">
            Login
          </Link>
        </>
      }
    >
      <RegisterForm />
    </AuthPageFrame>
  );
}

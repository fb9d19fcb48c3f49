/**
 * The sign-in and account endpoints: part of the API path table (`apiPaths.auth` in
 * lib/api-paths.ts), kept in a module of their own because the session and the account pages load
 * with the first page, and the rest of the table belongs to screens loaded later.
 */
export const authApiPaths = {
  user: '/auth/user',
  login: '/auth/login',
  register: '/auth/register',
  logout: '/auth/logout',
  verifyEmail: '/auth/verify-email',
  forgotPassword: '/auth/forgot-password',
  resetPassword: '/auth/reset-password',
  changePassword: '/auth/change-password',
  logoutEverywhere: '/auth/logout-everywhere',
  deleteAccount: '/auth/delete-account',
};

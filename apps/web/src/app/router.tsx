import { createBrowserRouter, type RouteObject } from 'react-router-dom';
import { PageLoading } from '../components/loading-icon.tsx';
import { AppLayout } from './layout/app-layout.tsx';
import { RequireAuth } from './require-auth.tsx';
import { RequireSeenDemo } from './require-seen-demo.tsx';
import { AboutRoute } from './routes/about-route.tsx';
import { AccountRoute, ForgotPasswordRoute, ResetPasswordRoute, VerifyEmailRoute } from './routes/account-routes.tsx';
import { DemoRoute } from './routes/demo-route.tsx';
import { FaqsRoute } from './routes/faqs-route.tsx';
import { HomeRoute } from './routes/home-route.tsx';
import { LoginRoute } from './routes/login-route.tsx';
import { NotFoundRoute } from './routes/not-found-route.tsx';
import { PricingRoute } from './routes/pricing-route.tsx';
import { RegisterRoute } from './routes/register-route.tsx';

/**
 * The whole route table of spec section 2. Public screens are small and load with the app; each
 * private screen is its own module, loaded on first visit, so heavy screens (PDF viewers, the
 * grading dialog) never weigh on the landing page. Replace a screen by editing its module in
 * ./routes/; keep its named export.
 */
const QUESTION = 'assignments/:assignmentId/questions/:questionId';

export const routes: RouteObject[] = [
  {
    element: <AppLayout />,
    HydrateFallback: () => <PageLoading />,
    children: [
      { index: true, element: <HomeRoute /> },
      { path: 'pricing', element: <PricingRoute /> },
      { path: 'faqs', element: <FaqsRoute /> },
      { path: 'about', element: <AboutRoute /> },
      { path: 'login', element: <LoginRoute /> },
      { path: 'register', element: <RegisterRoute /> },
      { path: 'demo', element: <DemoRoute /> },
      { path: 'verify-email', element: <VerifyEmailRoute /> },
      { path: 'forgot-password', element: <ForgotPasswordRoute /> },
      { path: 'reset-password', element: <ResetPasswordRoute /> },
      {
        element: <RequireAuth />,
        children: [
          { path: 'account', element: <AccountRoute /> },
          {
            // Spec: a logged-in person who has not seen the demo goes to /demo before the courses list.
            element: <RequireSeenDemo />,
            children: [
              {
                path: 'courses',
                lazy: async () => ({ Component: (await import('./routes/courses-route.tsx')).CoursesRoute }),
              },
            ],
          },
          {
            path: 'courses/create',
            lazy: async () => ({ Component: (await import('./routes/course-create-route.tsx')).CourseCreateRoute }),
          },
          {
            path: 'courses/:id',
            lazy: async () => ({ Component: (await import('./routes/course-detail-route.tsx')).CourseDetailRoute }),
          },
          {
            path: 'courses/:id/students',
            lazy: async () => ({ Component: (await import('./routes/course-students-route.tsx')).CourseStudentsRoute }),
          },
          {
            path: 'assignments',
            lazy: async () => ({ Component: (await import('./routes/assignments-route.tsx')).AssignmentsRoute }),
          },
          {
            path: 'assignments/create',
            lazy: async () => ({
              Component: (await import('./routes/assignment-create-route.tsx')).AssignmentCreateRoute,
            }),
          },
          {
            path: 'assignments/:id',
            lazy: async () => ({
              Component: (await import('./routes/assignment-detail-route.tsx')).AssignmentDetailRoute,
            }),
          },
          {
            path: 'assignments/:assignmentId/questions',
            lazy: async () => ({ Component: (await import('./routes/questions-route.tsx')).QuestionsRoute }),
          },
          {
            path: 'assignments/:assignmentId/questions/create',
            lazy: async () => ({ Component: (await import('./routes/question-create-route.tsx')).QuestionCreateRoute }),
          },
          {
            path: QUESTION,
            lazy: async () => ({ Component: (await import('./routes/question-detail-route.tsx')).QuestionDetailRoute }),
          },
          {
            path: `${QUESTION}/rubric`,
            lazy: async () => ({ Component: (await import('./routes/rubric-edit-route.tsx')).RubricEditRoute }),
          },
          {
            path: `${QUESTION}/rubric-wizard`,
            lazy: async () => ({ Component: (await import('./routes/rubric-wizard-route.tsx')).RubricWizardRoute }),
          },
          {
            path: `${QUESTION}/grade/:submissionId`,
            lazy: async () => ({
              Component: (await import('./routes/grade-submission-route.tsx')).GradeSubmissionRoute,
            }),
          },
          {
            path: `${QUESTION}/grade/:submissionId/report`,
            lazy: async () => ({ Component: (await import('./routes/grading-report-route.tsx')).GradingReportRoute }),
          },
        ],
      },
      { path: '*', element: <NotFoundRoute /> },
    ],
  },
];

export function createAppRouter() {
  return createBrowserRouter(routes);
}

import type { QueryClient } from '@tanstack/react-query';
import { createBrowserRouter, type LoaderFunction, type RouteObject } from 'react-router-dom';
import { apiClient } from '../lib/api-client.ts';
import { hasSeenDemo, isPrefetchOff } from '../lib/browser-storage.ts';
import { courseQueries } from '../lib/queries/courses.ts';
import { queryKeys } from '../lib/query-keys.ts';
import { hasSessionToken } from '../lib/session.tsx';
import { gradingScreenFirstReads } from './grading-screen-first-reads.ts';
import { AppLayout, FULL_SCREEN } from './layout/app-layout.tsx';
import { holdFirstView } from '../lib/after-first-view.ts';
import { AppLoading } from './layout/app-loading.tsx';
import { RequireAuth } from './require-auth.tsx';
import { RequireSeenDemo } from './require-seen-demo.tsx';
import { RouteErrorScreen } from './route-error-screen.tsx';
import { NotFoundRoute } from './routes/not-found-route.tsx';

/**
 * The whole route table of spec section 2. Only the not-found page loads with the app; every other
 * screen, the landing page included, is its own module, loaded on first visit, so forms
 * (react-hook-form) and heavy screens (PDF viewers, the grading dialog) never weigh on the first
 * page (decisions 0020 and 0039: at most 200 KB of gzipped JS). Replace a screen by editing its
 * module in ./routes/; keep its named export.
 */
const QUESTION = 'assignments/:assignmentId/questions/:questionId';

/** The account screens share one module (and MUI's TextField, which the first page does without). */
const accountRoutes = () => import('./routes/account-routes.tsx');
/** The LTI screens (issue 32) share one module. */
const ltiRoutes = () => import('./routes/lti-routes.tsx');

/**
 * The route table with the query cache its loaders fill. Each loader only starts a screen's query
 * (the screen's own key and fetcher, from lib/queries) and returns at once: nothing waits for it.
 */
export function createRoutes(queryClient: QueryClient): RouteObject[] {
  return [
    {
      element: <AppLayout />,
      // While the first screen's module loads (index.html's first paint looks the same).
      HydrateFallback: AppLoading,
      // A screen that throws, or whose lazy chunk is gone after a deploy (route-error-screen.tsx).
      errorElement: <RouteErrorScreen />,
      children: [
        { index: true, lazy: async () => ({ Component: (await import('./routes/home-route.tsx')).HomeRoute }) },
        {
          path: 'pricing',
          lazy: async () => ({ Component: (await import('./routes/pricing-route.tsx')).PricingRoute }),
        },
        { path: 'faqs', lazy: async () => ({ Component: (await import('./routes/faqs-route.tsx')).FaqsRoute }) },
        { path: 'about', lazy: async () => ({ Component: (await import('./routes/about-route.tsx')).AboutRoute }) },
        { path: 'login', lazy: async () => ({ Component: (await import('./routes/login-route.tsx')).LoginRoute }) },
        {
          path: 'register',
          lazy: async () => ({ Component: (await import('./routes/register-route.tsx')).RegisterRoute }),
        },
        { path: 'demo', lazy: async () => ({ Component: (await import('./routes/demo-route.tsx')).DemoRoute }) },
        { path: 'verify-email', lazy: async () => ({ Component: (await accountRoutes()).VerifyEmailRoute }) },
        { path: 'forgot-password', lazy: async () => ({ Component: (await accountRoutes()).ForgotPasswordRoute }) },
        { path: 'reset-password', lazy: async () => ({ Component: (await accountRoutes()).ResetPasswordRoute }) },
        // Where an LMS launch arrives, before any session: it makes one (issue 32).
        { path: 'lti/landing', lazy: async () => ({ Component: (await ltiRoutes()).LtiLandingRoute }) },
        {
          element: <RequireAuth />,
          children: [
            { path: 'account', lazy: async () => ({ Component: (await accountRoutes()).AccountRoute }) },
            { path: 'lti', lazy: async () => ({ Component: (await ltiRoutes()).LtiSettingsRoute }) },
            { path: 'lti/link', lazy: async () => ({ Component: (await ltiRoutes()).LtiLinkRoute }) },
            { path: 'lti/deep-link', lazy: async () => ({ Component: (await ltiRoutes()).LtiDeepLinkRoute }) },
            {
              // Spec: a logged-in person who has not seen the demo goes to /demo before the courses list.
              element: <RequireSeenDemo />,
              children: [
                {
                  path: 'courses',
                  loader: startCoursesList(queryClient),
                  // Entering /courses asks once; a click on its own link while on it does not ask again.
                  shouldRevalidate: () => false,
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
              path: 'courses/:id/regrade-requests',
              lazy: async () => ({ Component: (await import('./routes/regrade-queue-route.tsx')).RegradeQueueRoute }),
            },
            {
              path: 'courses/:id/work-split',
              lazy: async () => ({ Component: (await import('./routes/work-split-route.tsx')).WorkSplitRoute }),
            },
            {
              path: 'courses/:id/students',
              lazy: async () => ({
                Component: (await import('./routes/course-students-route.tsx')).CourseStudentsRoute,
              }),
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
              lazy: async () => ({
                Component: (await import('./routes/question-create-route.tsx')).QuestionCreateRoute,
              }),
            },
            {
              path: QUESTION,
              lazy: async () => ({
                Component: (await import('./routes/question-detail-route.tsx')).QuestionDetailRoute,
              }),
            },
            {
              path: 'assignments/:assignmentId/statistics',
              lazy: async () => ({ Component: (await import('./routes/statistics-route.tsx')).StatisticsRoute }),
            },
            {
              path: `${QUESTION}/statistics`,
              lazy: async () => ({ Component: (await import('./routes/statistics-route.tsx')).StatisticsRoute }),
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
              handle: FULL_SCREEN,
              loader: startGradingScreen(queryClient),
              lazy: async () => {
                const route = import('./routes/grade-submission-route.tsx');
                // The dialog's code is asked for beside the route's, not once the route's module has
                // arrived and runs: one round trip fewer before the screen's largest paint, the
                // dialog's first result (decision 0085). The route's own import finds it loading.
                void import('../features/grading/components/grading-dialog.tsx').catch(() => undefined);
                // The screen's frame draws its title in its own font (Roboto Medium), fetched beside the
                // module, not in a fallback redrawn when Roboto arrives: the dialog's title then replaces
                // it at the same size, and the screen's largest text is the frame's (decision 0053).
                await titleFontLoaded();
                return { Component: (await route).GradeSubmissionRoute };
              },
            },
            {
              path: `${QUESTION}/grade/:submissionId/report`,
              handle: FULL_SCREEN,
              lazy: async () => ({ Component: (await import('./routes/grading-report-route.tsx')).GradingReportRoute }),
            },
          ],
        },
        { path: '*', element: <NotFoundRoute /> },
      ],
    },
  ];
}

/**
 * The courses list's request starts as the navigation to /courses does: on a first visit beside
 * the session check, not after it, the guards and the screen's chunk (decision 0059). The screen
 * reads the same query (useCourses with loadedByRoute) and, mounting, does not ask again. Nothing
 * is asked without a stored session, nor when RequireSeenDemo will send the person to /demo.
 */
function startCoursesList(queryClient: QueryClient): LoaderFunction {
  return () => {
    if (hasSessionToken() && hasSeenDemo()) void queryClient.prefetchQuery(courseQueries.list());
    return null;
  };
}

/**
 * The grading screen's reads start as the navigation to it does, beside the session check and the
 * screen's code (decision 0079), from a small module of their own (the queries and their contracts)
 * so neither the first page's JavaScript grows nor the reads wait for the screen's components. On
 * moving through the queue they find what the open answer read ahead.
 */
function startGradingScreen(queryClient: QueryClient): LoaderFunction {
  return ({ params, request }) => {
    const { assignmentId = '', questionId = '', submissionId = '' } = params;
    const inQueue = new URL(request.url).searchParams.get('queue') === '1';
    // isPrefetchOff: bench/grading-next.ts measures today's way (the screen reads on mounting) too.
    if (!hasSessionToken() || isPrefetchOff()) return null;
    // The first grading screen of this page: its module of reads is still to come, behind the
    // screen's other files on the browser's six connections. Its requests go out now and it takes
    // their answers (decision 0099); the queue only when no other screen has read it.
    if (!gradingReads) {
      // What no first view needs waits until the route has drawn the dialog (decision 0125).
      holdFirstView();
      const withQueue = inQueue && queryClient.getQueryData(queryKeys.grading.queue(questionId)) === undefined;
      for (const { method, path } of gradingScreenFirstReads({ assignmentId, questionId, submissionId }, withQueue))
        apiClient.startEarly(method, path);
    }
    gradingReads ??= import('../features/grading/api/grading-reads.ts');
    void gradingReads.then(({ startGradingScreen: start }) =>
      start(queryClient, { assignmentId, questionId, submissionId }, inQueue),
    );
    return null;
  };
}

/** The grading screen's module of reads, once asked for (router.tsx's loader of that screen). */
let gradingReads: Promise<typeof import('../features/grading/api/grading-reads.ts')> | undefined;

/** Roboto Medium (the h6 of a dialog's title), loaded; at once where the browser has no font API (tests). */
function titleFontLoaded(): Promise<unknown> {
  // A font that fails to load is drawn in the fallback, as everywhere else.
  return document.fonts?.load('500 20px Roboto').catch(() => undefined) ?? Promise.resolve();
}

export function createAppRouter(queryClient: QueryClient) {
  return createBrowserRouter(createRoutes(queryClient));
}

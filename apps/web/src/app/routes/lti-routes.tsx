/** LTI 1.3 screens (issue 32): the routes compose the feature's screens. */
export { LtiDeepLinkScreen as LtiDeepLinkRoute } from '../../features/lti/components/lti-deep-link-screen.tsx';
export { LtiLandingScreen as LtiLandingRoute } from '../../features/lti/components/lti-landing-screen.tsx';
export { LtiLinkScreen as LtiLinkRoute } from '../../features/lti/components/lti-link-screen.tsx';
export { LtiSettingsScreen as LtiSettingsRoute } from '../../features/lti/components/lti-settings-screen.tsx';

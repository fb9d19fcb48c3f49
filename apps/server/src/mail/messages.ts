import type { OutgoingEmail } from './mailer.ts';

/** The texts of the emails Gradewise sends. Plain text: nothing in them runs or loads anything. */

export const REGISTRATION_LINK_HOURS = 24;
export const RESET_LINK_MINUTES = 60;

export function finishRegistrationEmail(to: string, name: string, link: string): OutgoingEmail {
  return {
    to,
    subject: 'Confirm your email for Gradewise',
    text: [
      `Hello ${name},`,
      '',
      'Someone (we hope you) registered a Gradewise account with this email address.',
      `To confirm it is yours and finish registering, open this link within ${REGISTRATION_LINK_HOURS} hours:`,
      '',
      link,
      '',
      'If this was not you, ignore this email: no account is created until the link is opened.',
    ].join('\n'),
  };
}

export function alreadyRegisteredEmail(to: string, loginLink: string, resetLink: string): OutgoingEmail {
  return {
    to,
    subject: 'You already have a Gradewise account',
    text: [
      'Hello,',
      '',
      'Someone (we hope you) tried to register a Gradewise account with this email address,',
      'but it already has one. Nothing was changed.',
      '',
      `To log in: ${loginLink}`,
      `If you forgot your password: ${resetLink}`,
      '',
      'If this was not you, ignore this email.',
    ].join('\n'),
  };
}

export function resetPasswordEmail(to: string, link: string): OutgoingEmail {
  return {
    to,
    subject: 'Reset your Gradewise password',
    text: [
      'Hello,',
      '',
      `To choose a new Gradewise password, open this link within ${RESET_LINK_MINUTES} minutes:`,
      '',
      link,
      '',
      'It works once. If you did not ask for this, ignore this email: your password stays as it is.',
    ].join('\n'),
  };
}

export function noAccountEmail(to: string, registerLink: string): OutgoingEmail {
  return {
    to,
    subject: 'Gradewise password reset',
    text: [
      'Hello,',
      '',
      'Someone (we hope you) asked to reset the Gradewise password of this email address,',
      'but no Gradewise account uses it.',
      '',
      `To create one: ${registerLink}`,
      '',
      'If this was not you, ignore this email.',
    ].join('\n'),
  };
}

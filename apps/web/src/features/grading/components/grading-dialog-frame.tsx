import { useEffect, useRef, type KeyboardEvent, type ReactNode } from 'react';
import { Box, Button, IconButton, Paper, Stack, Toolbar, Typography } from '@mui/material';
import CloseIcon from '@mui/icons-material/Close';
import { LoadingMessage } from '../../../components/screen-states.tsx';
import { formatPoints } from '../format.ts';

/**
 * What the grading screen draws before its own code has arrived (decision 0053): its title bar and
 * its loading state, from this small module. The dialog itself, with the about 45 files it
 * imports, follows; the grading screen shows this frame until then, so the screen has its title
 * (its largest text, Lighthouse's LCP) after one request instead of after all of them.
 *
 * Only components the app shell already loads are used here (Paper, Toolbar, IconButton, Button,
 * Typography), so this module brings no MUI file of its own.
 */

export const GRADE_DIALOG_TITLE = 'Grade Question Submission';
export const GRADE_DIALOG_TITLE_ID = 'grade-dialog-title';
export const GRADING_DATA_LOADING = 'Loading grading data…';

export interface GradingTitleBarProps {
  /** "Sam Student · Eigenvalues · 10 points", once the submission is known. */
  subtitle: { studentName: string; questionTitle: string | null | undefined; points: number } | null;
  onClose(): void;
  /** The bar's right-hand side: the shortcuts button and, in the review queue, Previous / Next. */
  children: ReactNode;
}

/** The grading screen's top bar: Close, the title and whose answer it is, then `children`. */
export function GradingTitleBar({ subtitle, onClose, children }: GradingTitleBarProps) {
  return (
    <Toolbar sx={{ gap: 1, flexWrap: 'wrap', flexShrink: 0, borderBottom: 1, borderColor: 'divider', py: 1 }}>
      <IconButton edge="start" color="inherit" aria-label="Close" onClick={onClose}>
        <CloseIcon />
      </IconButton>
      <Box sx={{ flex: 1, minWidth: 0 }}>
        <Typography id={GRADE_DIALOG_TITLE_ID} variant="h6" component="h1">
          {GRADE_DIALOG_TITLE}
        </Typography>
        {subtitle ? (
          <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
            {subtitle.studentName} · {subtitle.questionTitle ?? 'Question'} · {formatPoints(subtitle.points)} points
          </Typography>
        ) : (
          // The line's place is kept until the submission is known, so the screen below it does not
          // move down when it arrives (a layout shift of 0.014 once the dialog no longer faded in).
          <Typography variant="body2" aria-hidden>
            {'\u00a0'}
          </Typography>
        )}
      </Box>
      {children}
    </Toolbar>
  );
}

/** The bottom bar's buttons (spec section 2); the dialog adds Close and a note beside them. */
export function GradingActionButtons({
  canAct,
  canSave,
  isSaving,
  onRegrade,
  onSaveGrade,
}: {
  canAct: boolean;
  canSave: boolean;
  isSaving: boolean;
  onRegrade(): void;
  onSaveGrade(): void;
}) {
  return (
    <Stack direction="row" spacing={1}>
      <Button variant="outlined" onClick={onRegrade} disabled={!canAct}>
        Regrade With AI
      </Button>
      <Button variant="contained" onClick={onSaveGrade} disabled={!canSave} aria-busy={isSaving}>
        Save Grade
      </Button>
    </Stack>
  );
}

/** The bottom bar's frame, the same in the dialog and in the frame drawn before it. */
export const GRADING_ACTIONS_SX = {
  borderTop: 1,
  borderColor: 'divider',
  px: { xs: 1.5, sm: 3 },
  py: 1.5,
  flexWrap: 'wrap',
  gap: 1,
} as const;

/**
 * The content area's padding, the same in the dialog and in the frame drawn before it. The
 * scroll padding keeps whatever the keyboard or a scrollIntoView brings into view clear of the
 * grade bar stuck to the bottom (its height and a margin): no control ends up under it.
 */
export const GRADING_CONTENT_SX = { px: { xs: 1.5, sm: 3 }, pt: { xs: 0, md: 2.5 }, scrollPaddingBottom: 96 } as const;

const doNothing = () => undefined;

/**
 * The grading screen while its code loads: laid out as the dialog's own loading state (title bar,
 * "Loading grading data…", the two buttons disabled), so nothing moves when the dialog replaces it.
 * A dialog to assistive technology too, named by the title, busy. As the dialog does, it takes the
 * focus when it opens and keeps Tab inside (its one control, Close, works already).
 */
export function GradingDialogFrame({ onClose }: { onClose(): void }) {
  const paperRef = useRef<HTMLDivElement | null>(null);
  useEffect(() => paperRef.current?.focus(), []);
  const keepTabInside = (event: KeyboardEvent) => {
    if (event.key !== 'Tab') return;
    event.preventDefault();
    paperRef.current?.querySelector<HTMLElement>('button:not(:disabled)')?.focus();
  };
  return (
    <Box sx={{ position: 'fixed', inset: 0, zIndex: 'modal' }}>
      <Paper
        ref={paperRef}
        role="dialog"
        aria-modal="true"
        aria-labelledby={GRADE_DIALOG_TITLE_ID}
        aria-busy="true"
        tabIndex={-1}
        onKeyDown={keepTabInside}
        elevation={24}
        square
        // MUI's full-screen dialog paper (Dialog fullScreen): the whole window, a column.
        sx={{
          width: '100%',
          height: '100%',
          display: 'flex',
          flexDirection: 'column',
          overflowY: 'auto',
          outline: 'none',
        }}
      >
        <GradingTitleBar subtitle={null} onClose={onClose}>
          {/* The shortcuts button's place (an IconButton: 40 px), so the title does not rewrap when it comes. */}
          <Box aria-hidden sx={{ order: 2, width: 40, height: 40 }} />
        </GradingTitleBar>
        <Box sx={{ flex: '1 1 auto', overflowY: 'auto', py: 2.5, ...GRADING_CONTENT_SX }}>
          <LoadingMessage text={GRADING_DATA_LOADING} />
        </Box>
        <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'flex-end', p: 1, ...GRADING_ACTIONS_SX }}>
          <GradingActionButtons
            canAct={false}
            canSave={false}
            isSaving={false}
            onRegrade={doNothing}
            onSaveGrade={doNothing}
          />
        </Box>
      </Paper>
    </Box>
  );
}

import { useId, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import {
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  IconButton,
  Stack,
  Typography,
} from '@mui/material';
import CloseIcon from '@mui/icons-material/Close';

export interface WelcomeDialogProps {
  open: boolean;
  onClose: () => void;
}

const STEP_COUNT = 4;

/**
 * The four-step welcome of spec section 2. Step 0 asks who is visiting: students go straight to
 * /register; instructors see steps 1-3 (time saved, rubrics, control) and then Get Started.
 */
export function WelcomeDialog({ open, onClose }: WelcomeDialogProps) {
  const [step, setStep] = useState(0);
  const navigate = useNavigate();
  const titleId = useId();
  const next = () => setStep((current) => Math.min(current + 1, STEP_COUNT - 1));
  const goToRegister = () => {
    onClose();
    navigate('/register');
  };

  const content = [
    {
      title: 'Welcome to Gradewise',
      text: 'Are you an instructor or a student?',
      actions: (
        <>
          <Button variant="outlined" color="secondary" onClick={goToRegister}>
            Student
          </Button>
          <Button variant="contained" onClick={next}>
            Instructor
          </Button>
        </>
      ),
    },
    {
      title: 'Spend less time grading',
      text: 'Gradewise aims to turn a week of grading into minutes. It drafts review comments and point deductions for every submission, so you review instead of writing each one from scratch. Our goal is to save you about 60% of your grading time.',
      actions: (
        <Button variant="contained" onClick={next}>
          Next
        </Button>
      ),
    },
    {
      title: 'Rubrics drafted for you',
      text: 'Upload a question as a PDF, with its solution if you have one, and Gradewise generates a rubric for it automatically. Edit it as much as you like before grading.',
      actions: (
        <Button variant="contained" onClick={next}>
          Next
        </Button>
      ),
    },
    {
      title: 'You Remain in Control',
      text: 'Every comment and deduction is a suggestion, shown with a confidence level. You accept, edit or decline each one, add your own, and nothing becomes a grade until you save it.',
      actions: (
        <Button variant="contained" onClick={goToRegister}>
          Get Started
        </Button>
      ),
    },
  ][step];

  if (!content) return null;
  return (
    <Dialog
      open={open}
      onClose={onClose}
      aria-labelledby={titleId}
      fullWidth
      maxWidth="sm"
      // Back to the first step once closed, after the fade-out, so the closing dialog does not flicker.
      slotProps={{ transition: { onExited: () => setStep(0) } }}
    >
      <DialogTitle id={titleId} sx={{ pr: 6 }}>
        {content.title}
      </DialogTitle>
      <IconButton aria-label="Close" onClick={onClose} sx={{ position: 'absolute', right: 8, top: 8 }}>
        <CloseIcon />
      </IconButton>
      <DialogContent>
        <DialogContentText>{content.text}</DialogContentText>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2, justifyContent: 'space-between' }}>
        <Typography variant="caption" color="text.secondary">
          Step {step + 1} of {STEP_COUNT}
        </Typography>
        <Stack direction="row" spacing={1}>
          {content.actions}
        </Stack>
      </DialogActions>
    </Dialog>
  );
}

import { useState } from 'react';
import { ClickAwayListener, IconButton, Tooltip } from '@mui/material';
import InfoOutlinedIcon from '@mui/icons-material/InfoOutlined';
import { CONFIDENCE_DEFINITION } from '@gradewise/shared/contracts/suggestions';

/** The sentence every confidence number means (issue 9): shown as help and read to screen readers. */
export const CONFIDENCE_HELP = `Confidence is ${CONFIDENCE_DEFINITION}.`;

/**
 * An info button next to a confidence number: hover, focus or tap shows what the number means.
 * Tapping toggles it (touch screens have no hover); the text is also the button's description.
 */
export function ConfidenceHelp({ label = 'What confidence means' }: { label?: string }) {
  const [isOpen, setOpen] = useState(false);
  return (
    <ClickAwayListener onClickAway={() => setOpen(false)}>
      <span>
        <Tooltip
          title={CONFIDENCE_HELP}
          open={isOpen}
          onOpen={() => setOpen(true)}
          onClose={() => setOpen(false)}
          describeChild
          arrow
          placement="top"
        >
          <IconButton
            size="small"
            aria-label={label}
            onClick={() => setOpen((open) => !open)}
            sx={{ ml: 0.5, my: -0.5 }}
          >
            <InfoOutlinedIcon fontSize="small" />
          </IconButton>
        </Tooltip>
      </span>
    </ClickAwayListener>
  );
}

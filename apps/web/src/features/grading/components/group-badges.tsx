import { Chip, Tooltip } from '@mui/material';
import FlagOutlinedIcon from '@mui/icons-material/FlagOutlined';
import StarOutlineIcon from '@mui/icons-material/StarOutline';
import WorkspacesOutlineIcon from '@mui/icons-material/WorkspacesOutline';
import type { AnswerGroupFlag } from '@gradewise/shared/contracts/answer-groups';
import { describeGroupSize, FLAG_TEXTS } from '../api/answer-groups-api.ts';

/** "Group of 7 alike answers": the answer has alike classmates a grade can be applied to. */
export function GroupSizeBadge({ size }: { size: number }) {
  return (
    <Chip
      size="small"
      variant="outlined"
      color="info"
      icon={<WorkspacesOutlineIcon />}
      label={describeGroupSize(size)}
      sx={{ maxWidth: '100%' }}
    />
  );
}

/** An answer that differs from its group, with the reason in words (never colour alone). */
export function GroupFlagBadge({ flag }: { flag: AnswerGroupFlag }) {
  return (
    <Chip
      size="small"
      variant="outlined"
      color="warning"
      icon={<FlagOutlinedIcon />}
      label={`Differs from its group: ${FLAG_TEXTS[flag].toLowerCase()}`}
      sx={{ maxWidth: '100%', height: 'auto', '& .MuiChip-label': { whiteSpace: 'normal', py: 0.25 } }}
    />
  );
}

/** "Grade first": one of the answers that best represent the class, while fewer than k grades are saved. */
export function GradeFirstBadge({ represents }: { represents: number | null | undefined }) {
  const standsFor =
    represents && represents > 1 ? `Stands for ${represents} answers of the class.` : 'Stands apart in the class.';
  return (
    <Tooltip title={`Grade this early: it teaches the AI the most. ${standsFor}`}>
      <Chip size="small" color="primary" icon={<StarOutlineIcon />} label="Grade first" aria-description={standsFor} />
    </Tooltip>
  );
}

import { Chip, Stack } from '@mui/material';
import AssignmentIndOutlinedIcon from '@mui/icons-material/AssignmentIndOutlined';
import EditNoteIcon from '@mui/icons-material/EditNote';
import type { GradingWorkFields } from '@gradewise/shared/contracts/work-split';

/**
 * Under a student on staff lists (decision 0031): whose share the answer is, and who has it open in
 * the grading screen right now. Said in words, never colour alone; nothing when neither applies.
 */
export function GradingWorkBadges({ work, viewerId }: { work: Partial<GradingWorkFields>; viewerId: string | null }) {
  const assigned = work.assignedTo ?? [];
  const openByOther = work.openBy && work.openBy._id !== viewerId ? work.openBy : null;
  if (assigned.length === 0 && !openByOther) return null;
  const isMine = assigned.some((grader) => grader._id === viewerId);
  return (
    <Stack direction="row" spacing={0.5} useFlexGap sx={{ flexWrap: 'wrap', mt: 0.5 }}>
      {openByOther ? (
        <Chip
          size="small"
          color="warning"
          icon={<EditNoteIcon />}
          label={`Open by ${openByOther.name}`}
          sx={{ maxWidth: '100%' }}
        />
      ) : null}
      {assigned.length > 0 ? (
        <Chip
          size="small"
          variant="outlined"
          color={isMine ? 'primary' : 'default'}
          icon={<AssignmentIndOutlinedIcon />}
          label={isMine ? 'Your share' : `Share of ${assigned.map((grader) => grader.name).join(', ')}`}
          sx={{ maxWidth: '100%' }}
        />
      ) : null}
    </Stack>
  );
}

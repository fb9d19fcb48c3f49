import { Box, Button, Stack, Typography } from '@mui/material';
import CropFreeIcon from '@mui/icons-material/CropFree';
import LocationSearchingIcon from '@mui/icons-material/LocationSearching';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutline';
import type { CommentRegion } from '@gradewise/shared/contracts/comment-region';
import { describeRegion } from '../../../../components/comment-regions/region-geometry.ts';
import { RegionNumber } from '../../../../components/comment-regions/region-overlay.tsx';

export interface CommentRegionControlsProps {
  /** The comment's number in the list (as on its box). */
  number: number;
  region: CommentRegion | null;
  isAccepted: boolean;
  /** This comment's box is being drawn now. */
  isMarking: boolean;
  disabled: boolean;
  onMark(): void;
  onShow(): void;
  onRemove(): void;
}

/**
 * A comment's place on the page, on its card in the grading screen (issue 13 item 12): "Mark on
 * page" to draw one, or where it is ("page 2, upper left") with Show on page, Move and Remove.
 */
export function CommentRegionControls({
  number,
  region,
  isAccepted,
  isMarking,
  disabled,
  onMark,
  onShow,
  onRemove,
}: CommentRegionControlsProps) {
  if (isMarking) {
    return (
      <Typography variant="body2" color="primary" sx={{ mt: 1 }} role="status">
        Drawing the box on the page…
      </Typography>
    );
  }
  if (!region) {
    return (
      <Box sx={{ mt: 0.5 }}>
        <Button
          size="small"
          startIcon={<CropFreeIcon />}
          // The visible text first, so a voice command naming it finds the button (axe: label-content-name-mismatch).
          aria-label={`Mark on page: comment ${number}`}
          onClick={onMark}
          disabled={disabled}
        >
          Mark on page
        </Button>
      </Box>
    );
  }
  return (
    <Stack direction="row" spacing={0.5} useFlexGap sx={{ flexWrap: 'wrap', alignItems: 'center', mt: 0.5 }}>
      <RegionNumber number={number} placement="inline" isMuted={!isAccepted} />
      <Typography variant="body2" color="text.secondary" sx={{ mr: 0.5 }}>
        Marked: {describeRegion(region)}
      </Typography>
      <Button
        size="small"
        startIcon={<LocationSearchingIcon />}
        aria-label={`Show comment ${number} on page ${region.page}`}
        onClick={onShow}
      >
        Show
      </Button>
      <Button
        size="small"
        startIcon={<CropFreeIcon />}
        aria-label={`Move the mark of comment ${number}`}
        onClick={onMark}
        disabled={disabled}
      >
        Move
      </Button>
      <Button
        size="small"
        color="error"
        startIcon={<DeleteOutlineIcon />}
        aria-label={`Remove the mark of comment ${number}`}
        onClick={onRemove}
        disabled={disabled}
      >
        Remove
      </Button>
    </Stack>
  );
}

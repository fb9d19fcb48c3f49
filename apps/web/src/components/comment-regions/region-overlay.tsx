import { useEffect, useRef } from 'react';
import { Box, ButtonBase } from '@mui/material';
import { alpha } from '@mui/material/styles';
import type { CommentRegion } from '@gradewise/shared/contracts/comment-region';
import { regionToPercentStyle } from './region-geometry.ts';

/** One comment's box on the page: the number is the comment's number in the list beside it. */
export interface RegionMark {
  /** The comment's key (tempId on the grading screen, _id in the report). */
  key: string;
  number: number;
  region: CommentRegion;
  /** What the comment says (shortened), for the box's accessible name. */
  text: string;
  /** A declined comment (instructor only): drawn dashed and grey, as it does not count. */
  isMuted?: boolean;
}

export interface RegionOverlayProps {
  page: number;
  marks: readonly RegionMark[];
  /** The comment being looked at: its box stands out. */
  highlightedKey: string | null;
  /** The box to bring into view; a new nonce asks again (the box may be mounted only later, with its page). */
  scrollTarget?: { key: string; nonce: number } | null;
  onSelect(key: string): void;
}

/** The longest comment text read out as a box's name; the whole comment is in the list. */
const NAME_TEXT_MAX = 80;

/**
 * The comments' boxes on one PDF page (issue 13 item 12), laid over the page in percentages so
 * they sit right at any width. Each box is a button named for its comment ("Comment 2: Units
 * missing"): choosing it takes the user to the comment. Only the boxes take the pointer, so the
 * page's text can still be selected around them.
 */
export function RegionOverlay({ page, marks, highlightedKey, scrollTarget = null, onSelect }: RegionOverlayProps) {
  const onPage = marks.filter((mark) => mark.region.page === page);
  if (onPage.length === 0) return null;
  return (
    <Box
      component="ul"
      aria-label={`Marked places on page ${page}`}
      sx={{ position: 'absolute', inset: 0, m: 0, p: 0, listStyle: 'none', pointerEvents: 'none', lineHeight: 1.2 }}
    >
      {onPage.map((mark) => (
        <RegionBox
          key={mark.key}
          mark={mark}
          isHighlighted={mark.key === highlightedKey}
          scrollNonce={scrollTarget?.key === mark.key ? scrollTarget.nonce : null}
          onSelect={() => onSelect(mark.key)}
        />
      ))}
    </Box>
  );
}

function RegionBox({
  mark,
  isHighlighted,
  scrollNonce,
  onSelect,
}: {
  mark: RegionMark;
  isHighlighted: boolean;
  scrollNonce: number | null;
  onSelect(): void;
}) {
  const ref = useRef<HTMLLIElement | null>(null);
  useEffect(() => {
    if (scrollNonce === null) return;
    const reducedMotion = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches;
    ref.current?.scrollIntoView?.({ block: 'nearest', inline: 'nearest', behavior: reducedMotion ? 'auto' : 'smooth' });
  }, [scrollNonce]);
  const text = mark.text.length > NAME_TEXT_MAX ? `${mark.text.slice(0, NAME_TEXT_MAX - 1)}…` : mark.text;
  return (
    <Box
      component="li"
      ref={ref}
      data-region-box={mark.key}
      data-highlighted={isHighlighted ? 'true' : undefined}
      sx={{ position: 'absolute', ...regionToPercentStyle(mark.region), zIndex: isHighlighted ? 2 : 1 }}
    >
      <ButtonBase
        aria-label={`Comment ${mark.number}: ${text || '(no text)'}`}
        onClick={onSelect}
        sx={(theme) => {
          const colour = mark.isMuted
            ? theme.palette.grey[500]
            : isHighlighted
              ? theme.palette.primary.main
              : theme.palette.warning.main;
          return {
            pointerEvents: 'auto',
            position: 'absolute',
            inset: 0,
            display: 'block',
            border: `${isHighlighted ? 3 : 2}px ${mark.isMuted ? 'dashed' : 'solid'} ${colour}`,
            borderRadius: 0.5,
            bgcolor: alpha(colour, isHighlighted ? 0.16 : 0.06),
            '&:hover': { bgcolor: alpha(colour, 0.2) },
            '&.Mui-focusVisible': { outline: `3px solid ${theme.palette.primary.dark}`, outlineOffset: 2 },
          };
        }}
      >
        <RegionNumber number={mark.number} isHighlighted={isHighlighted} isMuted={mark.isMuted} />
      </ButtonBase>
    </Box>
  );
}

/** The comment's number, as on its box and beside it in the list: what ties the two together. */
export function RegionNumber({
  number,
  isHighlighted = false,
  isMuted = false,
  placement = 'corner',
}: {
  number: number;
  isHighlighted?: boolean;
  isMuted?: boolean;
  /** 'corner': on a box's top-left corner; 'inline': beside a comment's text. */
  placement?: 'corner' | 'inline';
}) {
  return (
    <Box
      component="span"
      aria-hidden
      sx={{
        ...(placement === 'corner' ? { position: 'absolute', top: -2, left: -2 } : { display: 'inline-flex' }),
        minWidth: 22,
        height: 22,
        px: 0.5,
        borderRadius: 11,
        display: 'inline-flex',
        alignItems: 'center',
        justifyContent: 'center',
        fontSize: 13,
        fontWeight: 700,
        color: isMuted ? 'common.black' : isHighlighted ? 'primary.contrastText' : 'warning.contrastText',
        bgcolor: isMuted ? 'grey.500' : isHighlighted ? 'primary.main' : 'warning.main',
        flexShrink: 0,
      }}
    >
      {number}
    </Box>
  );
}

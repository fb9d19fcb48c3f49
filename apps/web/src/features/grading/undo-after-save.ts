import { useEffect } from 'react';
import { undoFromToast } from '../../lib/toasts.tsx';
import { commandForKey } from './shortcut-keys.ts';

/*
 * U right after S (decision 0105). S saves; once the server has answered, the toast offers Undo
 * and, in the review queue, the queue is read again and the next answer's screen replaces this
 * one. A U pressed in that time was lost twice over: while the save was out the screen ignored
 * keys (busy), and once the saving screen had gone, before the next one had taken the keyboard
 * focus, the key reached no screen at all (a clean-clone CI pressed U 84 ms after the move: no
 * undo was sent). Now a save's time runs from S to the end of its move: a U pressed in it is kept
 * and runs that save's Undo once the move is done — not before, or the move would leave the
 * answer the undo has just brought back — and the grading route, which outlives its screens,
 * hears U when no screen does.
 */

interface SaveUnderWay {
  isUndoWanted: boolean;
}

/** The save from S (or Save Grade) to the end of its move, while one is under way. */
let underWay: SaveUnderWay | null = null;

export interface SaveTime {
  /** The save is offered for Undo and the screen has moved on (or closed): a U pressed meanwhile runs it now. */
  end(): void;
  /** The save failed, or its screen closed before it answered: a U pressed meanwhile had nothing to undo. */
  drop(): void;
}

/** Called as a save starts: a U from now on undoes this save. */
export function startSaveTime(): SaveTime {
  const own: SaveUnderWay = { isUndoWanted: false };
  underWay = own;
  const leave = () => {
    if (underWay === own) underWay = null;
    const wasWanted = own.isUndoWanted;
    own.isUndoWanted = false;
    return wasWanted;
  };
  return {
    end: () => {
      if (leave()) undoFromToast();
    },
    drop: () => {
      leave();
    },
  };
}

/**
 * What U does, as the toast's Undo button: takes back the grade just saved. A save still under way
 * is taken back as soon as it has been offered for Undo. False when there is nothing to undo.
 */
export function undoLatestSave(): boolean {
  if (underWay) {
    underWay.isUndoWanted = true;
    return true;
  }
  return undoFromToast();
}

/**
 * The grading route's U, heard on the document for as long as the route is open: between two
 * answers of the queue the keyboard focus is on no screen (the saving one has gone, the next has
 * not taken it yet), or on the frame drawn while the next one loads. A screen that handles the key
 * itself (grading-dialog.tsx) marks it handled, and it is not run twice; typing in a field is left alone.
 */
export function useUndoKeyBetweenScreens(inQueue: boolean): void {
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || commandForKey(event, inQueue) !== 'undoSave') return;
      if (undoLatestSave()) event.preventDefault();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [inQueue]);
}
